#ifndef DETENT_VST2_BRIDGE_H
#define DETENT_VST2_BRIDGE_H

// VST2 plug-ins run by the same C loop as every other format (CPluginKernel's
// `detent_lv2_run`). That loop calls a plug-in through an `LV2_Descriptor`; the bridge here
// is one whose handles are `DetentVst2Instance`s: it sends changed parameter values, turns the
// loop's MIDI sequence into VST2 events, keeps the transport the plug-in reads, and calls the
// plug-in's `processReplacing` (or its accumulating `process` on zeroed outputs, for the old
// plug-ins without it). The port numbers are BinaryPlugins' `BinaryPortLayout`: the main
// inputs, the outputs, one port per parameter, then the MIDI sequence.
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

/// A shell's next sub-plug-in: its id (0 when there are no more) and its name.
int32_t detent_vst2_shell_next(DetentVst2Instance *_Nonnull instance, char *_Nonnull name, uint32_t size);

/// The latency the plug-in reports now (its `initialDelay`), in frames.
int32_t detent_vst2_latency(DetentVst2Instance *_Nonnull instance);

/// The last change the plug-in made to one of its own parameters (`audioMasterAutomate`):
/// how many it made so far, and the last one's index and value.
uint32_t detent_vst2_automation(DetentVst2Instance *_Nonnull instance, int32_t *_Nonnull index, float *_Nonnull value);

#endif
