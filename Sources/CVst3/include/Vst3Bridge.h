#ifndef DETENT_VST3_BRIDGE_H
#define DETENT_VST3_BRIDGE_H

// VST3 plug-ins run by the same C loop as LV2 plug-ins (CPluginKernel's `detent_lv2_run`),
// through a bridge descriptor whose handles are `DetentVst3Instance`s, and read for a scan
// through the same instances. The VST3 interfaces themselves stay inside this module's C
// files: what Swift sees is the module (a library's factory), its classes, and instances with
// their buses, parameters and latency.
//
// Port numbers (as BinaryPlugins' `BinaryPortLayout` gives them): the main input's channels,
// the main output's, the side-chain input's, one per parameter the instance was given (see
// `detent_vst3_instance_ports`), then the MIDI input's atom sequence.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lv2/core/lv2.h>

/// A VST3 library's plug-in factory, entered once (`ModuleEntry`) and never left: instances
/// may exist until the process ends.
typedef struct DetentVst3Module DetentVst3Module;

/// One plug-in instance: its component, controller and processor, and everything its runs use.
typedef struct DetentVst3Instance DetentVst3Instance;

/// One class of a module's factory, its texts in UTF-8.
typedef struct DetentVst3Class {
    /// The class id as 32 upper-case hex digits.
    char identifier[33];
    /// `Audio Module Class` for a plug-in.
    char category[33];
    char name[256];
    /// The factory's vendor, or the class's own when the factory gives one.
    char vendor[256];
    char version[256];
    /// `Fx|Dynamics`, `Instrument|Synth`; empty without class info 2.
    char subcategories[129];
} DetentVst3Class;

/// The audio and event buses an instance uses: the channels of the main input and output
/// buses (the first main bus of each direction, 0 when none) and of the first auxiliary
/// input bus (the side chain), and whether it has an event input bus.
typedef struct DetentVst3Buses {
    int32_t inputs;
    int32_t outputs;
    int32_t sides;
    bool midi_input;
    bool midi_output;
} DetentVst3Buses;

/// One parameter as the controller describes it, its texts in UTF-8. `minimum`, `maximum`
/// and `default_value` are plain values when the plug-in's mapping from normalized values is
/// linear and not constant, else normalized (0, 1 and the normalized default).
typedef struct DetentVst3Parameter {
    uint32_t identifier;
    char name[512];
    char unit[512];
    int32_t steps;
    int32_t flags;
    double minimum;
    double maximum;
    double default_value;
    double default_normalized;
    /// True when `minimum`, `maximum` and `default_value` are plain values (false: 0…1).
    bool is_plain;
    bool is_read_only;
    bool is_bypass;
    bool is_list;
    bool is_hidden;
    bool is_program_change;
} DetentVst3Parameter;

/// Enters the library loaded at `library` (a `dlopen` handle, which Linux's `ModuleEntry`
/// takes), once per process. False with `reason` filled when it is not a VST3 module or its
/// entry fails.
bool detent_vst3_module_enter(void *_Nonnull library, char *_Nonnull reason, size_t size);
/// Takes the factory of an entered library. NULL with `reason` filled when it gives none.
DetentVst3Module *_Nullable detent_vst3_module_open(void *_Nonnull library, char *_Nonnull reason, size_t size);
int32_t detent_vst3_module_class_count(const DetentVst3Module *_Nonnull module);
/// Class `index`; false when the factory does not describe it.
bool detent_vst3_module_class(const DetentVst3Module *_Nonnull module, int32_t index, DetentVst3Class *_Nonnull out);

/// Makes an instance of the class `identifier` (32 hex digits): the component and its
/// controller created, initialised and connected, the controller given the component's
/// state, the buses arranged and the processing set up for `sample_rate` and runs of at most
/// `max_frames` (realtime mode, 32-bit samples). Not active. NULL with `reason` filled when
/// any step fails (nothing is left behind).
DetentVst3Instance *_Nullable detent_vst3_instance_new(const DetentVst3Module *_Nonnull module, const char *_Nonnull identifier,
                                                       double sample_rate, int32_t max_frames, char *_Nonnull reason,
                                                       size_t size);
/// Deactivates the instance if active, disconnects, terminates and releases its objects,
/// and frees it.
void detent_vst3_instance_free(DetentVst3Instance *_Nullable instance);

/// The tempo the process context tells (before activation; 120 when never set).
void detent_vst3_set_tempo(DetentVst3Instance *_Nonnull instance, double beats_per_minute);

DetentVst3Buses detent_vst3_instance_buses(const DetentVst3Instance *_Nonnull instance);
int32_t detent_vst3_parameter_count(const DetentVst3Instance *_Nonnull instance);
/// Parameter `index` of the controller; false when it does not describe it.
bool detent_vst3_parameter(const DetentVst3Instance *_Nonnull instance, int32_t index, DetentVst3Parameter *_Nonnull out);
/// The controller's text for `normalized` of the parameter `identifier`; false when none.
bool detent_vst3_parameter_text(const DetentVst3Instance *_Nonnull instance, uint32_t identifier, double normalized,
                                char *_Nonnull out, size_t size);
/// The normalized value the controller reads from `text` (UTF-8) for the parameter
/// `identifier` (`getParamValueByString`); false when it reads none.
bool detent_vst3_parameter_from_text(const DetentVst3Instance *_Nonnull instance, uint32_t identifier, const char *_Nonnull text,
                                     double *_Nonnull normalized);
/// The controller's normalized value of the parameter `identifier` now.
double detent_vst3_parameter_normalized(const DetentVst3Instance *_Nonnull instance, uint32_t identifier);
/// Gives the controller a normalized value of the parameter `identifier` (a program change
/// parameter's: the controller loads the program into its other parameters). Not while it runs.
bool detent_vst3_set_parameter_normalized(DetentVst3Instance *_Nonnull instance, uint32_t identifier, double normalized);
/// The latency the processor reports now, in frames.
uint32_t detent_vst3_latency(const DetentVst3Instance *_Nonnull instance);

/// Gives the instance its ports (before any `connect_port`): the channels of the main
/// input, main output and side-chain input it is connected with (each must be the bus's
/// own count), and its parameters in port order — each one's id, the range its port values
/// are in (a value `v` reaches the plug-in as `(v - minimum) / (maximum - minimum)`; a
/// read-only parameter's normalized value comes back as `minimum + n * (maximum - minimum)`)
/// and whether it is read-only. Allocates everything the runs use. False with `reason`
/// filled when the counts do not match the buses or memory runs out.
bool detent_vst3_instance_ports(DetentVst3Instance *_Nonnull instance, int32_t inputs, int32_t outputs, int32_t sides,
                                int32_t count, const uint32_t *_Nullable identifiers, const double *_Nullable minimums,
                                const double *_Nullable maximums, const bool *_Nullable read_only, char *_Nonnull reason,
                                size_t size);

/// The values the plug-in gave its writable parameters itself since the last call (its
/// controller's `performEdit`, or its processor's output changes), for a reader off the audio
/// thread: up to `capacity` of them, each parameter's index (in port order) and its latest
/// value in the port's range. Returns how many.
uint32_t detent_vst3_take_own_changes(DetentVst3Instance *_Nonnull instance, uint32_t *_Nonnull indices,
                                      double *_Nonnull values, uint32_t capacity);

/// The instance's state in this host's layout (see Vst3State.c): the component's state and
/// the controller's, in one block of `*size` bytes allocated with `malloc` (free it with
/// `detent_vst3_state_free`). NULL with `reason` filled when the component gives none.
/// Off the audio thread, while the instance is not running.
uint8_t *_Nullable detent_vst3_state_save(DetentVst3Instance *_Nonnull instance, size_t *_Nonnull size, char *_Nonnull reason,
                                          size_t reason_size);
void detent_vst3_state_free(uint8_t *_Nullable bytes);
/// Gives the instance a state `detent_vst3_state_save` made: the component's, then the
/// controller told of it, then the controller's own. Before activation, on the thread that
/// made the instance. False with `reason` filled when the bytes are not such a state or the
/// plug-in refuses them.
bool detent_vst3_state_restore(DetentVst3Instance *_Nonnull instance, const uint8_t *_Nullable bytes, size_t size,
                               char *_Nonnull reason, size_t reason_size);

/// The bridge descriptor the kernel loop calls (its handles are `DetentVst3Instance`s).
const LV2_Descriptor *_Nonnull detent_vst3_bridge(void);

#endif
