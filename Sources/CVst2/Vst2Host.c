#include "Vst2Instance.h"
#include "CRealtime.h"

#include <math.h>
#include <string.h>

/// The record of the plug-in being made on this thread: a plug-in calls the host from its entry
/// point, before the host could point its AEffect back at the record (a shell asks there which
/// sub-plug-in to be).
static _Thread_local DetentVst2Instance *loading;

void detent_vst2_set_loading(DetentVst2Instance *instance) { loading = instance; }

/// The record a call is about: the one loading on this thread, else the AEffect's host field.
static DetentVst2Instance *record(vst_effect *effect) {
    if (loading) return loading;
    return effect ? (DetentVst2Instance *)effect->host_internal : NULL;
}

/// What the host can do, as a plug-in asks it: events and time go to plug-ins; the events a
/// plug-in sends are taken (and dropped: the host has no MIDI output for them).
static intptr_t can_do(const char *what) {
    static const char *const yes[] = {
        "sendVstEvents", "sendVstMidiEvent", "sendVstTimeInfo", "receiveVstEvents", "receiveVstMidiEvent", "startStopProcess",
    };
    if (!what) return 0;
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        if (strcmp(what, yes[i]) == 0) return 1;
    }
    return -1;
}

static void copy_text(void *destination, const char *text) {
    // The vendor and product buffers hold 64 bytes.
    if (destination) strncpy((char *)destination, text, 63);
}

intptr_t detent_vst2_host(vst_effect *effect, int32_t opcode, int32_t index, intptr_t value, void *ptr, float opt) {
    DetentVst2Instance *instance = record(effect);
    switch (opcode) {
    case vst2_host_version:
        return 2400;
    case vst2_host_current_id:
        return instance ? instance->shell_id : 0;
    case vst2_host_automate:
        // A plug-in's own change: not the echo of a value the host has just sent it (some
        // plug-ins tell every change, the host's too), nor one of a parameter out of range.
        if (instance && instance->own && index >= 0 && index < instance->parameters && opt == opt
            && fabsf(opt - instance->sent[index]) > 1e-6f) {
            __atomic_store(&instance->own[index], &opt, __ATOMIC_RELEASE);
            detent_own_change_noted();
        }
        return 0;
    case vst2_host_idle:
        return 0;
    case vst2_host_pin_connected:
        // 0 means connected: every pin the plug-in has is.
        if (!instance || !instance->effect) return 0;
        return index < (value ? instance->effect->num_outputs : instance->effect->num_inputs) ? 0 : 1;
    case vst2_host_want_midi:
        return 1;
    case vst2_host_get_time:
        return instance ? (intptr_t)&instance->time : 0;
    case vst2_host_process_events:
        return 1;
    case vst2_host_io_changed:
        // A new latency is read from the AEffect whenever asked; new channel counts cannot be
        // taken while the host runs the plug-in with the old ones.
        if (!instance || !instance->effect) return 0;
        return instance->effect->num_inputs == instance->inputs && instance->effect->num_outputs == instance->outputs;
    case vst2_host_get_sample_rate:
        return instance ? (intptr_t)instance->sample_rate : 48000;
    case vst2_host_get_block_size:
        return instance ? instance->max_frames : 1024;
    case vst2_host_input_latency:
    case vst2_host_output_latency:
        return 0;
    case vst2_host_process_level:
        return instance && atomic_load_explicit(&instance->running, memory_order_relaxed) ? vst2_level_realtime : vst2_level_user;
    case vst2_host_automation_state:
        // Off: the host neither records nor plays back automation through the plug-in.
        return 1;
    case vst2_host_vendor_string:
    case vst2_host_product_string:
        copy_text(ptr, "Detent");
        return 1;
    case vst2_host_vendor_version:
        return 1;
    case vst2_host_can_do:
        return can_do((const char *)ptr);
    case vst2_host_language:
        return 1;
    case vst2_host_update_display:
        return 0;
    case vst2_host_begin_edit:
    case vst2_host_end_edit:
        return 1;
    default:
        return 0;
    }
}

void detent_vst2_update_time(DetentVst2Instance *instance) {
    Vst2TimeInfo *time = &instance->time;
    double rate = instance->sample_rate > 0 ? instance->sample_rate : 48000;
    DetentMusicalTime now = detent_musical_time(&instance->transport, (uint64_t)instance->position, instance->tempo, rate);
    time->sample_position = (double)now.frame;
    time->sample_rate = rate;
    time->tempo = now.beats_per_minute;
    time->ppq_position = now.quarters;
    time->bar_start = now.bar_start_quarters;
    time->signature_numerator = now.numerator;
    time->signature_denominator = now.denominator;
    time->flags = (now.rolling ? vst2_time_playing : 0) | vst2_time_ppq_valid | vst2_time_tempo_valid | vst2_time_bars_valid
        | vst2_time_signature_valid;
}

void detent_vst2_set_tempo(DetentVst2Instance *instance, double beats_per_minute) { instance->tempo = beats_per_minute; }
