#ifndef DETENT_VST2_BRIDGE_H
#define DETENT_VST2_BRIDGE_H

// VST2 plug-ins run by the same C loop as every other format (CPluginKernel's
// `detent_lv2_run`). That loop calls a plug-in through an `LV2_Descriptor`; the bridge here
// is one whose handles are `DetentVst2Instance`s: it sends changed parameter values, turns the
// loop's MIDI sequence into VST2 events, keeps the transport the plug-in reads, and calls the
// plug-in's `processReplacing` (or its accumulating `process` on zeroed outputs, for the old
// plug-ins without it). The port numbers are BinaryPlugins' `BinaryPortLayout`: the main
// inputs, the outputs, one port per parameter, then — for a plug-in with programs whose
// program row is used (`detent_vst2_use_program_port`) — the program's index, then the MIDI
// sequence.
//
// The program is selected (`effSetProgram`) only as the plug-in is activated, never in a run:
// VST2 promises nothing about what a plug-in does when it changes programs (some load files),
// so it is kept off the audio thread. A program's parameters are the row values a program's
// preset carries, which runs send as usual; a change of the program row itself while running
// takes effect at the next activation (an engine reset).
//
// Everything else — the host callback, opening and closing, what a scan reads — is here too,
// so that the Swift side never sees the VST2 interface itself.

#include <stdint.h>
#include <lv2/core/lv2.h>

/// One open VST2 plug-in (its AEffect, what the host keeps for it, the bridge's buffers).
typedef struct DetentVst2Instance DetentVst2Instance;

/// The bridge descriptor the kernel loop calls (static; its handles are `DetentVst2Instance`s).
const LV2_Descriptor *_Nonnull detent_vst2_bridge(void);

/// A library's VST2 entry point (`VSTPluginMain`, else `main`), NULL when it has none. A
/// symbol found outside the library itself (the process's own `main`) is not taken.
void *_Nullable detent_vst2_entry(void *_Nonnull library);

/// Makes and opens one plug-in through `entry`: `shell_id` is the sub-plug-in a shell is
/// asked for (0: the library's own), and the sample rate and largest block are given to it.
/// On failure returns NULL with `failure` set to a static phrase ("returned no plug-in").
DetentVst2Instance *_Nullable detent_vst2_open(void *_Nonnull entry, int32_t shell_id, double sample_rate, int32_t max_frames,
                                               const char *_Nullable *_Nonnull failure);

/// Closes the plug-in (`effClose`) and frees the record.
void detent_vst2_close(DetentVst2Instance *_Nonnull instance);

/// The tempo `audioMasterGetTime` tells (before activation; 120 when never set).
void detent_vst2_set_tempo(DetentVst2Instance *_Nonnull instance, double beats_per_minute);

/// Tells the plug-in the channels it is given (`effSetSpeakerArrangement`), before it is
/// activated: mono, stereo, or that many discrete channels, for its inputs and its outputs.
/// Returns 1 when it takes them. Its pin counts stay what they were: a plug-in that declares
/// more pins than it is told of leaves the others unused (IEM's ambisonic plug-ins declare 64
/// and work in the channels they are told).
int32_t detent_vst2_arrange(DetentVst2Instance *_Nonnull instance, int32_t inputs, int32_t outputs);

/// What an open plug-in says of itself.
typedef struct DetentVst2Info {
    int32_t unique_id;
    int32_t version;
    int32_t vendor_version;
    /// Its category (`effGetPlugCategory`): 1 effect, 2 synth, 3 analysis, … 10 shell.
    int32_t category;
    int32_t flags;
    int32_t inputs;
    int32_t outputs;
    int32_t parameters;
    int32_t latency;
    int32_t is_synth;
    /// Its programs (`numPrograms`; 0 or 1: none to choose from).
    int32_t programs;
    /// Its state is a chunk (`effFlagsProgramChunks`): `effGetChunk`/`effSetChunk` keep it.
    int32_t keeps_chunks;
    /// It runs only through the accumulating `process` (no `processReplacing`).
    int32_t accumulates_only;
    /// It runs only in double precision.
    int32_t double_only;
    int32_t receives_midi;
    int32_t sends_midi;
} DetentVst2Info;

void detent_vst2_info(DetentVst2Instance *_Nonnull instance, DetentVst2Info *_Nonnull info);

/// The texts a plug-in gives about itself.
typedef enum DetentVst2Text {
    DETENT_VST2_EFFECT_NAME = 0,
    DETENT_VST2_VENDOR = 1,
    DETENT_VST2_PRODUCT = 2,
} DetentVst2Text;

/// Copies one of the plug-in's texts into `text` (truncated to `size`, always terminated).
void detent_vst2_text(DetentVst2Instance *_Nonnull instance, DetentVst2Text which, char *_Nonnull text, uint32_t size);

/// One parameter as a scan reads it.
typedef struct DetentVst2ParameterInfo {
    char name[128];
    char unit[64];
    /// Its value now (0…1).
    float value;
    /// 0: continuous; 1: on/off; n: n + 1 values.
    int32_t steps;
} DetentVst2ParameterInfo;

void detent_vst2_parameter(DetentVst2Instance *_Nonnull instance, int32_t index, DetentVst2ParameterInfo *_Nonnull info);

/// The values a parameter's port takes, as its display text showed them when it was read
/// (``VST2Curve``): `minimum` for 0 and `maximum` for 1, in between in a straight line or,
/// when `logarithmic`, by equal ratios. 0…1, straight, until told.
typedef struct DetentVst2Range {
    double minimum, maximum;
    int32_t logarithmic;
} DetentVst2Range;

/// Tells the bridge the ranges of the first `count` parameters, before the instance runs.
void detent_vst2_set_ranges(DetentVst2Instance *_Nonnull instance, int32_t count, const DetentVst2Range *_Nonnull ranges);

/// The plug-in's text for parameter `index` at `value` (0…1): VST2 shows only a parameter's
/// value now (`effGetParamDisplay`), so the parameter is set to `value` first. For reading a
/// plug-in (the scanning child), never while it runs.
void detent_vst2_parameter_display(DetentVst2Instance *_Nonnull instance, int32_t index, float value, char *_Nonnull text,
                                   uint32_t size);

/// A shell's next sub-plug-in: its id (0 when there are no more) and its name.
int32_t detent_vst2_shell_next(DetentVst2Instance *_Nonnull instance, char *_Nonnull name, uint32_t size);

/// The name of program `index` (`effGetProgramNameIndexed`; for a plug-in that does not
/// answer, by selecting it and reading `effGetProgramName`, which leaves it selected). Empty
/// when it has none.
void detent_vst2_program_name(DetentVst2Instance *_Nonnull instance, int32_t index, char *_Nonnull text, uint32_t size);

/// The program selected now (`effGetProgram`).
int32_t detent_vst2_current_program(DetentVst2Instance *_Nonnull instance);

/// Selects program `index` (`effSetProgram`), off the audio thread, while not running.
void detent_vst2_select_program(DetentVst2Instance *_Nonnull instance, int32_t index);

/// The value (0…1) the plug-in reads from `text` for parameter `index`
/// (`effString2Parameter`, which sets it), into `value`; 0 when it reads none. Never while
/// it runs.
int32_t detent_vst2_parameter_from_text(DetentVst2Instance *_Nonnull instance, int32_t index, const char *_Nonnull text,
                                        float *_Nonnull value);

/// The plug-in's value of parameter `index` now (0…1).
float detent_vst2_parameter_value(DetentVst2Instance *_Nonnull instance, int32_t index);

/// Makes the port after the parameters the program row's (before ports are connected): its
/// value, a program index, is selected as the plug-in is activated.
void detent_vst2_use_program_port(DetentVst2Instance *_Nonnull instance);

/// The plug-in's bank chunk (`effGetChunk`, index 0): its bytes, which stay the plug-in's and
/// are valid only until it is next called, so the caller copies them at once. Returns the
/// size (0: it gave none) and sets `data`.
int64_t detent_vst2_chunk(DetentVst2Instance *_Nonnull instance, const void *_Nullable *_Nonnull data);

/// Gives the plug-in a bank chunk (`effSetChunk`, index 0). The bytes are copied into the
/// record first and kept until the next chunk or close, for plug-ins that read them after the
/// call returns. Returns 0 when memory ran out.
int32_t detent_vst2_set_chunk(DetentVst2Instance *_Nonnull instance, const void *_Nonnull data, int64_t size);

/// The latency the plug-in reports now (its `initialDelay`), in frames.
int32_t detent_vst2_latency(DetentVst2Instance *_Nonnull instance);

/// The values the plug-in gave its own parameters (`audioMasterAutomate`) since the last call
/// (off the audio thread): up to `capacity` of them, each parameter's index and its latest
/// value in its port's range. Returns how many.
uint32_t detent_vst2_take_own_changes(DetentVst2Instance *_Nonnull instance, uint32_t *_Nonnull indices,
                                      double *_Nonnull values, uint32_t capacity);

#endif
