#ifndef DETENT_VST2_INTERFACE_H
#define DETENT_VST2_INTERFACE_H

// The VST2 interface as the bridge's C files use it: the plug-in's `struct vst_effect` (the
// AEffect) and its magic number from the clean-room header DPF ships, and the rest — the
// opcodes by what they do, the event and time records — named here. That header is written
// for C++ (it names its own structs and enums without `struct`/`enum`), so those names are
// declared first; nothing of it reaches the public header.

#include <stdint.h>

#ifndef __cdecl
#define __cdecl
#endif
typedef struct vst_effect vst_effect;
typedef enum VST_EFFECT_OPCODE VST_EFFECT_OPCODE;
typedef enum VST_HOST_OPCODE VST_HOST_OPCODE;
typedef enum VST_SPEAKER_TYPE VST_SPEAKER_TYPE;
typedef enum VST_ARRANGEMENT_TYPE VST_ARRANGEMENT_TYPE;
typedef struct vst_speaker_properties vst_speaker_properties;
typedef struct vst_speaker_arrangement vst_speaker_arrangement;
#include <xaymar-vst2/vst.h>

/// What the host asks of a plug-in (the dispatcher's opcodes Detent uses).
enum {
    vst2_open = 0,
    vst2_close = 1,
    vst2_set_program = 2,
    vst2_get_program = 3,
    vst2_program_name = 5,
    vst2_parameter_label = 6,
    vst2_parameter_display = 7,
    vst2_parameter_name = 8,
    vst2_set_sample_rate = 10,
    vst2_set_block_size = 11,
    vst2_mains_changed = 12,
    vst2_get_chunk = 23,
    vst2_set_chunk = 24,
    vst2_process_events = 25,
    vst2_string_to_parameter = 27,
    vst2_program_name_indexed = 29,
    vst2_category = 35,
    vst2_set_speaker_arrangement = 42,
    vst2_effect_name = 45,
    vst2_vendor_string = 47,
    vst2_product_string = 48,
    vst2_vendor_version = 49,
    vst2_can_do = 51,
    vst2_parameter_properties = 56,
    vst2_shell_next = 70,
    vst2_start_process = 71,
    vst2_stop_process = 72,
    vst2_process_precision = 77,
};

/// What a plug-in asks of the host (the callback's opcodes Detent answers).
enum {
    vst2_host_automate = 0,
    vst2_host_version = 1,
    vst2_host_current_id = 2,
    vst2_host_idle = 3,
    vst2_host_pin_connected = 4,
    vst2_host_want_midi = 6,
    vst2_host_get_time = 7,
    vst2_host_process_events = 8,
    vst2_host_io_changed = 13,
    vst2_host_get_sample_rate = 16,
    vst2_host_get_block_size = 17,
    vst2_host_input_latency = 18,
    vst2_host_output_latency = 19,
    vst2_host_process_level = 23,
    vst2_host_automation_state = 24,
    vst2_host_vendor_string = 32,
    vst2_host_product_string = 33,
    vst2_host_vendor_version = 34,
    vst2_host_can_do = 37,
    vst2_host_language = 38,
    vst2_host_update_display = 42,
    vst2_host_begin_edit = 43,
    vst2_host_end_edit = 44,
};

/// The AEffect's flags Detent reads.
enum {
    vst2_flag_can_replace = 1 << 4,
    vst2_flag_program_chunks = 1 << 5,
    vst2_flag_is_synth = 1 << 8,
    vst2_flag_can_double_replace = 1 << 12,
};

/// Plug-in categories (`vst2_category`'s answers).
enum {
    vst2_category_synth = 2,
    vst2_category_shell = 10,
};

/// Parameter property flags.
enum {
    vst2_parameter_is_switch = 1 << 0,
    vst2_parameter_integer_range = 1 << 1,
    vst2_parameter_integer_step = 1 << 3,
};

/// Time info flags: what the record holds.
enum {
    vst2_time_playing = 1 << 1,
    vst2_time_ppq_valid = 1 << 9,
    vst2_time_tempo_valid = 1 << 10,
    vst2_time_bars_valid = 1 << 11,
    vst2_time_signature_valid = 1 << 13,
};

/// A process level (`vst2_host_process_level`'s answers).
enum { vst2_level_user = 1, vst2_level_realtime = 2 };

/// The host callback a plug-in is given at its entry.
typedef intptr_t (*Vst2HostCallback)(vst_effect *effect, int32_t opcode, int32_t index, intptr_t value, void *ptr, float opt);
/// A plug-in's entry point (`VSTPluginMain`, or `main` in older builds).
typedef vst_effect *(*Vst2Entry)(Vst2HostCallback callback);
/// The dispatcher as Detent calls it (the opcode is a 32-bit integer either way).
typedef intptr_t (*Vst2Dispatcher)(vst_effect *effect, int32_t opcode, int32_t index, intptr_t value, void *ptr, float opt);

/// One MIDI message of at most four bytes, in a plug-in's event list.
typedef struct Vst2MidiEvent {
    int32_t type;          // 1: MIDI
    int32_t byte_size;     // the record's size
    int32_t delta_frames;  // the frame in the coming block
    int32_t flags;
    int32_t note_length;
    int32_t note_offset;
    uint8_t data[4];
    int8_t detune;
    uint8_t note_off_velocity;
    uint8_t reserved[2];
} Vst2MidiEvent;

/// The event list `vst2_process_events` takes: a count and pointers to the events.
typedef struct Vst2Events {
    int32_t count;
    intptr_t reserved;
    void *events[];
} Vst2Events;

/// The transport as a plug-in reads it (`vst2_host_get_time`).
typedef struct Vst2TimeInfo {
    double sample_position;
    double sample_rate;
    double nanoseconds;
    double ppq_position;
    double tempo;
    double bar_start;
    double cycle_start;
    double cycle_end;
    int32_t signature_numerator;
    int32_t signature_denominator;
    int32_t smpte_offset;
    int32_t smpte_frame_rate;
    int32_t samples_to_next_clock;
    int32_t flags;
} Vst2TimeInfo;

/// A parameter's properties (`vst2_parameter_properties`).
typedef struct Vst2ParameterProperties {
    float step;
    float small_step;
    float large_step;
    char label[64];
    int32_t flags;
    int32_t minimum;
    int32_t maximum;
    int32_t integer_step;
    int32_t large_integer_step;
    char short_label[8];
    int16_t display_index;
    int16_t category;
    int16_t parameters_in_category;
    int16_t reserved;
    char category_label[24];
    char future[16];
} Vst2ParameterProperties;

#endif
