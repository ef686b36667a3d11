#ifndef DETENT_VST3_INSTANCE_H
#define DETENT_VST3_INSTANCE_H

// The records behind the public header's opaque types, shared by this module's C files.

#include "Vst3Bridge.h"
#include "Vst3Interfaces.h"
#include "BinaryTransport.h"

#include <lv2/atom/atom.h>
#include <stdatomic.h>

struct DetentVst3Module {
    /// The factory (`IPluginFactory`), and its later versions when it offers them.
    void *factory;
    void *factory2;
    void *factory3;
    struct v3_factory_info info;
};

/// Points one parameter queue can hold in one run (the plug-in's output changes may have
/// several; the host sends one).
#define VST3_QUEUE_POINTS 64

/// An `IParamValueQueue` over fixed arrays.
typedef struct Vst3Queue {
    const Vst3QueueTable *table;
    v3_param_id identifier;
    int32_t count;
    int32_t offsets[VST3_QUEUE_POINTS];
    double values[VST3_QUEUE_POINTS];
} Vst3Queue;

/// An `IParameterChanges` over a fixed array of queues, emptied before each run.
typedef struct Vst3Changes {
    const Vst3ChangesTable *table;
    int32_t count;
    int32_t capacity;
    Vst3Queue *queues;
} Vst3Changes;

/// An `IEventList` over a fixed array of events, filled before each run.
typedef struct Vst3Events {
    const Vst3EventsTable *table;
    int32_t count;
    int32_t capacity;
    struct v3_event *events;
} Vst3Events;

/// The `IComponentHandler` given to the controller: it records what the plug-in changes itself.
typedef struct Vst3Handler {
    const Vst3HandlerTable *table;
    DetentVst3Instance *instance;
} Vst3Handler;

struct DetentVst3Instance {
    void *component;
    void *controller;
    void *processor;
    /// Both connection points when the component and controller were connected (else NULL).
    void *component_point;
    void *controller_point;
    bool separate_controller;
    bool component_initialized;
    bool controller_initialized;
    bool active;
    bool processing;
    double sample_rate;
    /// The transport's tempo (0: never told, 120).
    double tempo;
    int32_t max_frames;

    /// Every audio bus of each direction, and which of them are the main input, main output
    /// and side chain (-1: none), with their channel counts.
    int32_t input_bus_count;
    int32_t output_bus_count;
    int32_t main_input;
    int32_t main_output;
    int32_t side_input;
    int32_t main_input_channels;
    int32_t main_output_channels;
    int32_t side_channels;
    bool event_input;
    bool event_output;

    // What the runs use, allocated by `detent_vst3_instance_ports`.
    bool ported;
    struct v3_audio_bus_buffers *input_buses;
    struct v3_audio_bus_buffers *output_buses;
    /// The channel pointers of every bus (the buses' `channel_buffers_32` point into these).
    float **input_channels;
    float **output_channels;
    /// A block of zeros for the inputs nobody connects, a block to write the unconnected outputs into.
    float *silence;
    float *scratch;
    int32_t inputs;
    int32_t outputs;
    int32_t sides;
    /// Where the main input's, main output's and side chain's channels start in `input_channels`
    /// and `output_channels`.
    int32_t main_input_first;
    int32_t main_output_first;
    int32_t side_first;

    int32_t parameter_count;
    v3_param_id *parameter_ids;
    double *minimums;
    double *maximums;
    bool *read_only;
    /// Each parameter's port value (connected), and the value last sent (NaN: none since
    /// activation) or, until the first activation after `primed`, the value the plug-in holds.
    float **values;
    float *sent;
    /// `sent` holds the plug-in's own values (`vst3_prime_values`): the next activation keeps
    /// them, so the first run sends only the values that differ.
    bool primed;
    uint32_t midi_port;
    const LV2_Atom_Sequence *midi;

    Vst3Changes input_changes;
    Vst3Changes output_changes;
    Vst3Events events;
    Vst3Events output_events;
    struct v3_process_context context;
    /// JACK's transport when the kernel told one (see `update_context`).
    DetentTransport transport;
    struct v3_process_data data;

    Vst3Handler handler;
    /// The bits of each parameter's last `performEdit` value (NaN's until one), and their count.
    _Atomic uint64_t *edits;
    atomic_int restart_flags;
};

/// Empties `changes` and gives it `capacity` queues (false when memory runs out).
bool vst3_changes_init(Vst3Changes *changes, int32_t capacity);
void vst3_changes_free(Vst3Changes *changes);
/// Adds one point to the queue of `identifier` (made when new); false when full.
bool vst3_changes_add(Vst3Changes *changes, v3_param_id identifier, int32_t offset, double value);
void vst3_changes_clear(Vst3Changes *changes);

bool vst3_events_init(Vst3Events *events, int32_t capacity);
void vst3_events_free(Vst3Events *events);
/// Fills `events` with the note events of a MIDI atom sequence (every event is MIDI bytes).
void vst3_events_from_midi(Vst3Events *events, const LV2_Atom_Sequence *midi);

void vst3_handler_init(Vst3Handler *handler, DetentVst3Instance *instance);
/// Records a value the plug-in gave its writable parameter `k` itself (0…1; lock-free, any
/// thread), for the host to take (`detent_vst3_take_own_changes`).
void vst3_own_change(DetentVst3Instance *instance, int32_t k, double normalized);

/// Takes each writable parameter's value as the controller holds it now, in its port's
/// terms, for the values last sent (Vst3Bridge.c). Off the audio thread, before activation.
void vst3_prime_values(DetentVst3Instance *instance);
/// The component's state now, in a new memory stream read from its start (release it), or
/// NULL when it gives none; `result` is the component's answer.
void *vst3_component_state(DetentVst3Instance *instance, v3_result *result);

#endif
