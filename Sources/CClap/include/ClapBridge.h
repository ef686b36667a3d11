#ifndef DETENT_CLAP_BRIDGE_H
#define DETENT_CLAP_BRIDGE_H

// CLAP plug-ins run by the same C loop as every other format (CPluginKernel's
// `detent_lv2_run`): the bridge here is an `LV2_Descriptor` whose handle is a
// `DetentClapInstance`. Its `connect_port` takes the ports of the binary formats' layout
// (main input channels, main output channels, side-chain channels, one port per parameter,
// the MIDI sequence); its `run` turns parameters whose values changed and the cycle's MIDI
// into CLAP input events and calls `process`. Everything `run` touches is allocated when the
// instance is made. The rest of this header is what the Swift side reads and makes plug-ins
// with (on a thread of its own, never the audio thread).

#include <stddef.h>
#include <stdint.h>
#include <lv2/core/lv2.h>

typedef struct DetentClapInstance DetentClapInstance;

/// Calls a library's `clap_entry.init(path)`; 0 when it has no usable entry (a CLAP version
/// this host cannot speak) or the entry refused. `entry` is the library's `clap_entry` symbol.
int detent_clap_open(const void *_Nonnull entry, const char *_Nonnull path);

/// The number of plug-ins of an opened entry's plug-in factory (0 without one).
uint32_t detent_clap_count(const void *_Nonnull entry);

/// What a plug-in's descriptor says. The strings belong to the library (valid while it is
/// loaded); `features` are joined with `|` into the caller's buffer.
typedef struct DetentClapDescription {
    const char *_Nullable id;
    const char *_Nullable name;
    const char *_Nullable vendor;
    const char *_Nullable version;
} DetentClapDescription;

int detent_clap_describe(const void *_Nonnull entry, uint32_t index, DetentClapDescription *_Nonnull description,
                         char *_Nonnull features, size_t features_size);

/// Makes and initialises plug-in `id` for `sample_rate` and runs of at most `max_frames`;
/// NULL with the reason in `error` when it cannot be made.
DetentClapInstance *_Nullable detent_clap_create(const void *_Nonnull entry, const char *_Nonnull id, double sample_rate,
                                                uint32_t max_frames, char *_Nonnull error, size_t error_size);

/// Deactivates (if active) and destroys the plug-in, and frees the record.
void detent_clap_destroy(DetentClapInstance *_Nullable instance);

/// The plug-in's buses as the host uses them: the main input's and output's channels, the
/// side-chain input's (the first input that is not the main one; 0: none), and whether it
/// takes notes or MIDI and writes them.
typedef struct DetentClapShape {
    uint32_t inputs;
    uint32_t outputs;
    uint32_t sides;
    int midi_input;
    int midi_output;
    uint32_t parameters;
} DetentClapShape;

DetentClapShape detent_clap_shape(const DetentClapInstance *_Nonnull instance);

/// One parameter's description: `flags` are CLAP's (`CLAP_PARAM_IS_*`).
typedef struct DetentClapParameter {
    uint32_t id;
    uint32_t flags;
    double minimum;
    double maximum;
    double default_value;
    char name[256];
    char module[256];
} DetentClapParameter;

int detent_clap_parameter(const DetentClapInstance *_Nonnull instance, uint32_t index, DetentClapParameter *_Nonnull parameter);

/// The plug-in's text for `value` of parameter `id` (`value_to_text`); 0 without one.
int detent_clap_value_text(const DetentClapInstance *_Nonnull instance, uint32_t id, double value, char *_Nonnull text,
                           uint32_t size);

/// The value the plug-in reads from `text` for parameter `id` (`text_to_value`); 0 when it
/// reads none.
int detent_clap_text_value(const DetentClapInstance *_Nonnull instance, uint32_t id, const char *_Nonnull text,
                           double *_Nonnull value);

/// The values the plug-in gave its writable parameters itself since the last call (off the
/// audio thread): up to `capacity` of them, each parameter's index and its latest value.
/// Returns how many.
uint32_t detent_clap_take_own_changes(DetentClapInstance *_Nonnull instance, uint32_t *_Nonnull indices,
                                      double *_Nonnull values, uint32_t capacity);

/// Activates the plug-in at the rate it was made for, reads its latency and deactivates it
/// (the scan's question; an instance for the kernel is activated by the bridge).
int detent_clap_probe_latency(DetentClapInstance *_Nonnull instance);

/// The latency the plug-in reports now (active or not; 0 without the extension).
uint32_t detent_clap_latency(const DetentClapInstance *_Nonnull instance);

/// The parameters' flags as the layout's ports take them, and the run's memory: call once
/// before the bridge's first `connect_port`. `midi_capacity`: MIDI messages one run takes.
int detent_clap_prepare(DetentClapInstance *_Nonnull instance, uint32_t midi_capacity);

/// True when the plug-in keeps a state of its own (`clap.state`).
int detent_clap_has_state(const DetentClapInstance *_Nonnull instance);

/// The plug-in's state (`clap.state`'s `save`) in a buffer the caller frees with `free`;
/// 0 (and nothing to free) when it gave none.
int detent_clap_save_state(DetentClapInstance *_Nonnull instance, uint8_t *_Nullable *_Nonnull bytes, size_t *_Nonnull size);

/// Gives the plug-in a state it saved (`load`); 0 when it refused.
int detent_clap_load_state(DetentClapInstance *_Nonnull instance, const uint8_t *_Nonnull bytes, size_t size);

/// The tempo the transport tells (before activation; 120 when never set).
void detent_clap_set_tempo(DetentClapInstance *_Nonnull instance, double beats_per_minute);

/// The bridge descriptor (static; its handles are `DetentClapInstance`s).
const LV2_Descriptor *_Nonnull detent_clap_bridge(void);

#endif
