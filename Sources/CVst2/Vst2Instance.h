#ifndef DETENT_VST2_INSTANCE_H
#define DETENT_VST2_INSTANCE_H

#include "Vst2Bridge.h"
#include "Vst2Interface.h"
#include "BinaryTransport.h"

#include <lv2/atom/atom.h>
#include <stdatomic.h>

/// MIDI messages one run can pass to a plug-in.
#define DETENT_VST2_EVENT_CAPACITY 1024

/// The host's record of one plug-in, which the AEffect's host field points back to. Its
/// buffers are made when it is opened, sized from the plug-in's own counts, so that a run
/// allocates nothing.
struct DetentVst2Instance {
    vst_effect *effect;
    /// The sub-plug-in id a shell is asked for while this one loads (`audioMasterCurrentId`).
    int32_t shell_id;
    double sample_rate;
    /// The transport's tempo (0: never told, 120).
    double tempo;
    int32_t max_frames;
    /// The plug-in's counts when it was opened (the bridge's port layout).
    int32_t inputs, outputs, parameters;
    /// It has no `processReplacing`: outputs are zeroed and `process` adds into them.
    int accumulates;

    /// The buffers the run loop connected, as the arrays `processReplacing` takes.
    float **input_buffers;
    float **output_buffers;
    /// Each parameter's value port, the port's value last seen (NaN: look again), the 0…1
    /// value last sent (or read from the plug-in), and the range its port's values are in.
    const float **parameter_values;
    float *seen;
    float *sent;
    DetentVst2Range *ranges;
    const LV2_Atom_Sequence *midi;
    /// The program row's port (an index), connected when `uses_program_port` is set.
    int uses_program_port;
    const float *program_value;
    /// The last chunk given to the plug-in, kept until the next one or close.
    void *chunk;

    /// One run's events: the list and the records it points to.
    Vst2Events *events;
    Vst2MidiEvent *midi_events;
    uint32_t events_dropped;

    /// The transport the plug-in reads, brought up to date before each run from `transport`
    /// (JACK's, when the kernel told one) at `position`, the frames run since activation.
    Vst2TimeInfo time;
    double position;
    DetentTransport transport;
    /// True during a run (the process level a plug-in asks for).
    atomic_int running;

    /// The 0…1 values the plug-in gave its own parameters (`audioMasterAutomate`), the latest
    /// per parameter since the host last took them (NaN: none).
    float *own;
};

/// The host callback every plug-in is given.
intptr_t detent_vst2_host(vst_effect *effect, int32_t opcode, int32_t index, intptr_t value, void *ptr, float opt);

/// The record a plug-in being made on this thread belongs to (its host field is not set yet
/// while its entry point runs), or NULL.
void detent_vst2_set_loading(DetentVst2Instance *instance);

/// Calls the plug-in's dispatcher.
static inline intptr_t detent_vst2_dispatch(DetentVst2Instance *instance, int32_t opcode, int32_t index, intptr_t value,
                                            void *ptr, float opt) {
    return ((Vst2Dispatcher)instance->effect->control)(instance->effect, opcode, index, value, ptr, opt);
}

/// The 0…1 value the plug-in is sent for a port value `value` in `range` (held to 0…1;
/// audio thread).
float detent_vst2_normalized(DetentVst2Range range, float value);

/// Brings the transport up to date for a block starting at the current position.
void detent_vst2_update_time(DetentVst2Instance *instance);

#endif
