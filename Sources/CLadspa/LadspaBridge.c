#include "LadspaBridge.h"

#include <CRealtime.h>
#include <string.h>
#include <lv2/atom/util.h>

static void bridge_connect(LV2_Handle handle, uint32_t port, void *data) {
    DetentLadspaInstance *instance = (DetentLadspaInstance *)handle;
    if (port == instance->midi_port) {
        instance->midi = (const LV2_Atom_Sequence *)data;
        return;
    }
    instance->descriptor->connect_port(instance->handle, port, (LADSPA_Data *)data);
}

static void bridge_activate(LV2_Handle handle) {
    DetentLadspaInstance *instance = (DetentLadspaInstance *)handle;
    // A program is selected again before the next run: activation may forget it.
    instance->program_selected = -1;
    if (instance->descriptor->activate) instance->descriptor->activate(instance->handle);
}

static void bridge_deactivate(LV2_Handle handle) {
    DetentLadspaInstance *instance = (DetentLadspaInstance *)handle;
    if (instance->descriptor->deactivate) instance->descriptor->deactivate(instance->handle);
}

/// Selects the program the program parameter names, when it changed (before a run, where DSSI
/// says a program change takes effect).
static void select_program(DetentLadspaInstance *instance) {
    if (!instance->program_value || instance->program_count == 0 || !instance->dssi || !instance->dssi->select_program) return;
    float value = *instance->program_value;
    int32_t index = value != value ? 0 : (int32_t)(value + 0.5f);
    if (index < 0) index = 0;
    if (index >= (int32_t)instance->program_count) index = (int32_t)instance->program_count - 1;
    if (index == instance->program_selected) return;
    instance->dssi->select_program(instance->handle, instance->program_banks[index], instance->program_numbers[index]);
    instance->program_selected = index;
}

static void bridge_run(LV2_Handle handle, uint32_t frames) {
    DetentLadspaInstance *instance = (DetentLadspaInstance *)handle;
    select_program(instance);
    if (instance->dssi && instance->dssi->run_synth) {
        uint32_t count = 0;
        if (instance->midi && instance->events) {
            count = detent_dssi_events(instance->midi, instance->events, instance->event_capacity, &instance->events_dropped);
        }
        instance->dssi->run_synth(instance->handle, frames, instance->events, count);
        return;
    }
    instance->descriptor->run(instance->handle, frames);
}

static const LV2_Descriptor bridge = {
    .URI = "urn:detent:ladspa-bridge",
    .instantiate = NULL,
    .connect_port = bridge_connect,
    .activate = bridge_activate,
    .run = bridge_run,
    .deactivate = bridge_deactivate,
    .cleanup = NULL,
    .extension_data = NULL,
};

const LV2_Descriptor *detent_ladspa_bridge(void) { return &bridge; }

/// One MIDI message as an ALSA sequencer event; 0 for the messages DSSI does not take this way.
static int convert(const uint8_t *bytes, uint32_t size, uint32_t frame, snd_seq_event_t *event) {
    if (size < 2) return 0;
    uint8_t status = bytes[0] & 0xF0, channel = bytes[0] & 0x0F;
    memset(event, 0, sizeof *event);
    event->time.tick = frame;
    switch (status) {
    case 0x80:
    case 0x90:
    case 0xA0:
        if (size < 3) return 0;
        // A note-on of velocity 0 is a note-off, as MIDI defines it.
        event->type = status == 0xA0 ? SND_SEQ_EVENT_KEYPRESS
            : status == 0x90 && bytes[2] > 0 ? SND_SEQ_EVENT_NOTEON : SND_SEQ_EVENT_NOTEOFF;
        event->data.note.channel = channel;
        event->data.note.note = bytes[1] & 0x7F;
        event->data.note.velocity = bytes[2] & 0x7F;
        return 1;
    case 0xB0:
        // Bank select (controllers 0 and 32) never goes through run_synth.
        if (size < 3 || bytes[1] == 0 || bytes[1] == 32) return 0;
        event->type = SND_SEQ_EVENT_CONTROLLER;
        event->data.control.channel = channel;
        event->data.control.param = bytes[1] & 0x7F;
        event->data.control.value = bytes[2] & 0x7F;
        return 1;
    case 0xD0:
        event->type = SND_SEQ_EVENT_CHANPRESS;
        event->data.control.channel = channel;
        event->data.control.value = bytes[1] & 0x7F;
        return 1;
    case 0xE0:
        if (size < 3) return 0;
        event->type = SND_SEQ_EVENT_PITCHBEND;
        event->data.control.channel = channel;
        event->data.control.value = (((int)(bytes[2] & 0x7F) << 7) | (bytes[1] & 0x7F)) - 8192;
        return 1;
    default:
        // Program changes go through select_program; system messages are not for a synth.
        return 0;
    }
}

uint32_t detent_dssi_events(const LV2_Atom_Sequence *midi, snd_seq_event_t *events, uint32_t capacity, uint32_t *dropped) {
    uint32_t count = 0;
    LV2_ATOM_SEQUENCE_FOREACH(midi, ev) {
        const uint8_t *bytes = (const uint8_t *)(ev + 1);
        uint32_t frame = ev->time.frames > 0 ? (uint32_t)ev->time.frames : 0;
        if (count >= capacity) {
            (*dropped)++;
            continue;
        }
        count += (uint32_t)convert(bytes, ev->body.size, frame, &events[count]);
    }
    return count;
}

