#include <stdlib.h>
#include "Vst2Instance.h"

#include <math.h>
#include <string.h>
#include <lv2/atom/util.h>

/// Ports in `BinaryPortLayout`'s order: main inputs, outputs, (no side chain in VST2), one per
/// parameter, the program row's when used, then the MIDI sequence.
static void bridge_connect(LV2_Handle handle, uint32_t port, void *data) {
    DetentVst2Instance *instance = (DetentVst2Instance *)handle;
    uint32_t ins = (uint32_t)instance->inputs, outs = (uint32_t)instance->outputs, parameters = (uint32_t)instance->parameters;
    uint32_t programs = instance->uses_program_port ? 1 : 0;
    if (port < ins) {
        instance->input_buffers[port] = (float *)data;
    } else if (port < ins + outs) {
        instance->output_buffers[port - ins] = (float *)data;
    } else if (port < ins + outs + parameters) {
        instance->parameter_values[port - ins - outs] = (const float *)data;
    } else if (programs && port == ins + outs + parameters) {
        instance->program_value = (const float *)data;
    } else if (port == ins + outs + parameters + programs) {
        instance->midi = (const LV2_Atom_Sequence *)data;
    }
}

/// Selects the program the program row names when it is not the plug-in's current one (a
/// restored chunk's own program is kept while the row agrees with it).
static void select_program(DetentVst2Instance *instance) {
    int32_t count = instance->effect->num_programs;
    if (!instance->program_value || count < 2) return;
    float value = *instance->program_value;
    if (value != value) return;
    int32_t index = (int32_t)(value + 0.5f);
    if (index < 0) index = 0;
    if (index >= count) index = count - 1;
    if (index != detent_vst2_current_program(instance)) detent_vst2_select_program(instance, index);
}

/// Takes the plug-in's own parameter values as the ones sent: a restored chunk or a selected
/// program set them, and a run sends a row's value only where it differs from what the
/// plug-in holds.
static void read_parameters(DetentVst2Instance *instance) {
    vst_effect *effect = instance->effect;
    if (!effect->get_parameter) return;
    for (int32_t k = 0; k < instance->parameters; k++) {
        instance->sent[k] = effect->get_parameter(effect, (uint32_t)k);
        instance->seen[k] = NAN;
    }
}

/// Some plug-ins (DPF's) set their latency (`initialDelay`) only when they process, and
/// some (IEM's RoomEncoder) crash when asked to process no frames; VST2 never defines a run of
/// none. So after activation one frame of silence is run into buffers of its own, and the
/// plug-in is deactivated and activated again to forget it: its latency is then known before
/// the first block. Off the audio thread, like every activation.
static void probe_latency(DetentVst2Instance *instance) {
    int32_t ins = instance->inputs, outs = instance->outputs;
    float *scratch = calloc((size_t)(ins + outs) + 1, sizeof(float));
    float **inputs = calloc((size_t)ins + 1, sizeof(float *)), **outputs = calloc((size_t)outs + 1, sizeof(float *));
    if (scratch && inputs && outputs) {
        for (int32_t c = 0; c < ins; c++) inputs[c] = scratch + c;
        for (int32_t c = 0; c < outs; c++) outputs[c] = scratch + ins + c;
        vst_effect *effect = instance->effect;
        if (!instance->accumulates) effect->process_float(effect, (const float *const *)inputs, outputs, 1);
        else if (effect->process) effect->process(effect, (const float *const *)inputs, outputs, 1);
        detent_vst2_dispatch(instance, vst2_stop_process, 0, 0, NULL, 0);
        detent_vst2_dispatch(instance, vst2_mains_changed, 0, 0, NULL, 0);
        detent_vst2_dispatch(instance, vst2_mains_changed, 0, 1, NULL, 0);
        detent_vst2_dispatch(instance, vst2_start_process, 0, 0, NULL, 0);
    }
    free(scratch);
    free(inputs);
    free(outputs);
}

static void bridge_activate(LV2_Handle handle) {
    DetentVst2Instance *instance = (DetentVst2Instance *)handle;
    select_program(instance);
    read_parameters(instance);
    instance->position = 0;
    instance->transport.told_at = 0;
    detent_vst2_update_time(instance);
    detent_vst2_dispatch(instance, vst2_mains_changed, 0, 1, NULL, 0);
    detent_vst2_dispatch(instance, vst2_start_process, 0, 0, NULL, 0);
    probe_latency(instance);
}

static void bridge_deactivate(LV2_Handle handle) {
    DetentVst2Instance *instance = (DetentVst2Instance *)handle;
    detent_vst2_dispatch(instance, vst2_stop_process, 0, 0, NULL, 0);
    detent_vst2_dispatch(instance, vst2_mains_changed, 0, 0, NULL, 0);
}

/// The MIDI messages of the run loop's sequence as the instance's VST2 events (at most
/// four bytes each: longer system-exclusive messages are left out). Returns the count.
static int32_t convert_midi(DetentVst2Instance *instance) {
    int32_t count = 0;
    LV2_ATOM_SEQUENCE_FOREACH(instance->midi, ev) {
        uint32_t size = ev->body.size;
        if (size == 0 || size > 4) continue;
        if (count >= DETENT_VST2_EVENT_CAPACITY) {
            instance->events_dropped++;
            continue;
        }
        Vst2MidiEvent *event = &instance->midi_events[count++];
        memset(event->data, 0, sizeof event->data);
        memcpy(event->data, (const uint8_t *)(ev + 1), size);
        event->delta_frames = ev->time.frames > 0 ? (int32_t)ev->time.frames : 0;
        event->flags = 0;
        event->note_length = 0;
        event->note_offset = 0;
        event->detune = 0;
        event->note_off_velocity = 0;
    }
    instance->events->count = count;
    return count;
}

static void bridge_run(LV2_Handle handle, uint32_t frames) {
    DetentVst2Instance *instance = (DetentVst2Instance *)handle;
    vst_effect *effect = instance->effect;
    atomic_store_explicit(&instance->running, 1, memory_order_relaxed);
    for (int32_t k = 0; k < instance->parameters; k++) {
        const float *port = instance->parameter_values[k];
        if (!port) continue;
        float value = *port;
        // A port's value is mapped to 0…1 only when it moved.
        if (value == instance->seen[k] || value != value) continue;
        instance->seen[k] = value;
        float normalized = detent_vst2_normalized(instance->ranges[k], value);
        if (normalized != instance->sent[k]) {
            // Known as sent before the plug-in hears it: an echo from within is not its own.
            instance->sent[k] = normalized;
            effect->set_parameter(effect, (uint32_t)k, normalized);
        }
    }
    // A run of no frames (the engine asking for latency) never reaches the plug-in: see
    // `probe_latency`.
    if (frames == 0) {
        atomic_store_explicit(&instance->running, 0, memory_order_relaxed);
        return;
    }
    detent_vst2_update_time(instance);
    if (instance->midi && convert_midi(instance) > 0) {
        detent_vst2_dispatch(instance, vst2_process_events, 0, 0, instance->events, 0);
    }
    if (!instance->accumulates) {
        effect->process_float(effect, (const float *const *)instance->input_buffers, instance->output_buffers, (int32_t)frames);
    } else if (effect->process) {
        // The accumulating `process` adds its output into the buffers.
        for (int32_t c = 0; c < instance->outputs; c++) {
            if (instance->output_buffers[c]) memset(instance->output_buffers[c], 0, frames * sizeof(float));
        }
        effect->process(effect, (const float *const *)instance->input_buffers, instance->output_buffers, (int32_t)frames);
    }
    instance->position += frames;
    atomic_store_explicit(&instance->running, 0, memory_order_relaxed);
}

/// JACK's transport, told for the runs from now on (audio thread).
DETENT_TRANSPORT_EXTENSION(DetentVst2Instance, transport, instance->position)

DETENT_BRIDGE_DESCRIPTOR("urn:detent:vst2-bridge", detent_vst2_bridge)
