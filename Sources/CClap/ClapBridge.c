#include "ClapBridge.h"
#include "BinaryTransport.h"
#include "CRealtime.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lv2/atom/util.h>

#include <clap/entry.h>
#include <clap/plugin-factory.h>
#include <clap/ext/audio-ports.h>
#include <clap/ext/latency.h>
#include <clap/ext/note-ports.h>
#include <clap/ext/params.h>
#include <clap/ext/state.h>
#include <clap/ext/thread-check.h>

/// One event of a run's input list: the largest kind the bridge sends.
typedef union DetentClapEvent {
    clap_event_header_t header;
    clap_event_param_value_t parameter;
    clap_event_note_t note;
    clap_event_midi_t midi;
} DetentClapEvent;

struct DetentClapInstance {
    clap_host_t host;
    const clap_plugin_t *plugin;
    const clap_plugin_params_t *params;
    const clap_plugin_latency_t *latency;
    const clap_plugin_audio_ports_t *audio_ports;
    const clap_plugin_note_ports_t *note_ports;
    const clap_plugin_state_t *state;
    double sample_rate;
    uint32_t max_frames;
    bool active;
    bool processing;
    /// The plug-in's audio ports: their channel counts, and which are the main input, the
    /// main output and the side-chain input (-1: none).
    uint32_t input_ports, output_ports;
    uint32_t *input_channels, *output_channels;
    int32_t main_input, main_output, side_input;
    /// Its first note input takes MIDI (else only CLAP's note events), and it has one.
    bool note_input, note_input_midi, note_output;
    /// Parameters: the descriptions read at `prepare`, each one's port value (connected by the
    /// loop) and the value last sent (NaN: none since activation).
    uint32_t parameter_count;
    clap_param_info_t *parameters;
    float **values;
    float *sent;
    /// The run's memory: each port's channel pointers, the buffers, the events.
    clap_audio_buffer_t *inputs, *outputs;
    float **input_pointers, **output_pointers;
    float *silence, *discard;
    const LV2_Atom_Sequence *midi;
    DetentClapEvent *events;
    uint32_t event_capacity, event_count;
    clap_input_events_t in_events;
    clap_output_events_t out_events;
    int64_t steady_time;
    /// The transport told at each run: rolling from frame 0 at `tempo` (120 when never told)
    /// in 4/4, as the other binary formats are told.
    clap_event_transport_t transport;
    double tempo;
    /// JACK's transport when the kernel told one (see `update_transport`).
    DetentTransport told;
    /// Values the plug-in gave writable parameters itself (an output event), by parameter:
    /// the latest since the host last took them (NaN: none), written on the audio thread.
    float *own;
};

// The thread-check extension: a run is on the audio thread; everything else on the main one.
static _Thread_local bool in_run;
static bool is_main_thread(const clap_host_t *host) { (void)host; return !in_run; }
static bool is_audio_thread(const clap_host_t *host) { (void)host; return in_run; }
static const clap_host_thread_check_t thread_check = {is_main_thread, is_audio_thread};

static void latency_changed(const clap_host_t *host) { (void)host; }
static const clap_host_latency_t host_latency = {latency_changed};

static uint32_t supported_dialects(const clap_host_t *host) {
    (void)host;
    return CLAP_NOTE_DIALECT_CLAP | CLAP_NOTE_DIALECT_MIDI;
}
static void note_rescan(const clap_host_t *host, uint32_t flags) { (void)host; (void)flags; }
static const clap_host_note_ports_t host_note_ports = {supported_dialects, note_rescan};

static const void *host_extension(const clap_host_t *host, const char *id) {
    (void)host;
    if (!strcmp(id, CLAP_EXT_THREAD_CHECK)) return &thread_check;
    if (!strcmp(id, CLAP_EXT_LATENCY)) return &host_latency;
    if (!strcmp(id, CLAP_EXT_NOTE_PORTS)) return &host_note_ports;
    return NULL;
}
// Restarts, process requests and main-thread callbacks are not needed by a host that
// processes every cycle and makes its instances again at each prepare.
static void host_request(const clap_host_t *host) { (void)host; }

int detent_clap_open(const void *entry_symbol, const char *path) {
    const clap_plugin_entry_t *entry = entry_symbol;
    if (!clap_version_is_compatible(entry->clap_version) || !entry->init || !entry->get_factory) return 0;
    return entry->init(path) ? 1 : 0;
}

static const clap_plugin_factory_t *factory_of(const void *entry_symbol) {
    const clap_plugin_entry_t *entry = entry_symbol;
    const clap_plugin_factory_t *factory = entry->get_factory(CLAP_PLUGIN_FACTORY_ID);
    return factory && factory->get_plugin_count && factory->get_plugin_descriptor && factory->create_plugin ? factory : NULL;
}

uint32_t detent_clap_count(const void *entry) {
    const clap_plugin_factory_t *factory = factory_of(entry);
    return factory ? factory->get_plugin_count(factory) : 0;
}

int detent_clap_describe(const void *entry, uint32_t index, DetentClapDescription *description, char *features,
                         size_t features_size) {
    const clap_plugin_factory_t *factory = factory_of(entry);
    const clap_plugin_descriptor_t *d = factory ? factory->get_plugin_descriptor(factory, index) : NULL;
    if (!d || !d->id) return 0;
    description->id = d->id;
    description->name = d->name;
    description->vendor = d->vendor;
    description->version = d->version;
    size_t used = 0;
    features[0] = 0;
    for (const char *const *f = d->features; f && *f && used + 1 < features_size; f++) {
        int n = snprintf(features + used, features_size - used, "%s%s", used ? "|" : "", *f);
        if (n < 0) break;
        used += (size_t)n;
    }
    return 1;
}

/// Reads the audio and note ports: which input is the main one and which the side chain.
static void read_ports(DetentClapInstance *instance) {
    const clap_plugin_t *plugin = instance->plugin;
    instance->main_input = instance->main_output = instance->side_input = -1;
    if (instance->audio_ports) {
        for (int direction = 0; direction < 2; direction++) {
            bool is_input = direction == 0;
            uint32_t count = instance->audio_ports->count(plugin, is_input);
            uint32_t *channels = calloc(count ? count : 1, sizeof *channels);
            int32_t main = -1, other = -1;
            for (uint32_t i = 0; i < count; i++) {
                clap_audio_port_info_t info;
                memset(&info, 0, sizeof info);
                if (!instance->audio_ports->get(plugin, i, is_input, &info)) continue;
                channels[i] = info.channel_count;
                if ((info.flags & CLAP_AUDIO_PORT_IS_MAIN) && main < 0) main = (int32_t)i;
                else if (other < 0) other = (int32_t)i;
            }
            if (main < 0 && count > 0) { main = 0; other = count > 1 ? 1 : -1; }
            if (is_input) {
                instance->input_ports = count;
                instance->input_channels = channels;
                instance->main_input = main;
                instance->side_input = other;
            } else {
                instance->output_ports = count;
                instance->output_channels = channels;
                instance->main_output = main;
            }
        }
    }
    if (instance->note_ports) {
        if (instance->note_ports->count(plugin, true) > 0) {
            clap_note_port_info_t info;
            memset(&info, 0, sizeof info);
            instance->note_input = true;
            instance->note_input_midi = instance->note_ports->get(plugin, 0, true, &info)
                && (info.supported_dialects & CLAP_NOTE_DIALECT_MIDI);
        }
        instance->note_output = instance->note_ports->count(plugin, false) > 0;
    }
}

DetentClapInstance *detent_clap_create(const void *entry, const char *id, double sample_rate, uint32_t max_frames, char *error,
                                       size_t error_size) {
    const clap_plugin_factory_t *factory = factory_of(entry);
    if (!factory) {
        snprintf(error, error_size, "its library has no plug-in factory");
        return NULL;
    }
    DetentClapInstance *instance = calloc(1, sizeof *instance);
    if (!instance) return NULL;
    instance->host = (clap_host_t){
        .clap_version = CLAP_VERSION_INIT, .host_data = instance, .name = "Detent", .vendor = "Detent",
        .url = "", .version = "1", .get_extension = host_extension,
        .request_restart = host_request, .request_process = host_request, .request_callback = host_request};
    instance->sample_rate = sample_rate;
    instance->max_frames = max_frames;
    instance->plugin = factory->create_plugin(factory, &instance->host, id);
    if (!instance->plugin) {
        snprintf(error, error_size, "its factory refused to make '%s'", id);
        free(instance);
        return NULL;
    }
    if (!instance->plugin->init(instance->plugin)) {
        snprintf(error, error_size, "it refused to initialise");
        instance->plugin->destroy(instance->plugin);
        free(instance);
        return NULL;
    }
    const clap_plugin_t *plugin = instance->plugin;
    instance->params = plugin->get_extension(plugin, CLAP_EXT_PARAMS);
    instance->latency = plugin->get_extension(plugin, CLAP_EXT_LATENCY);
    instance->audio_ports = plugin->get_extension(plugin, CLAP_EXT_AUDIO_PORTS);
    instance->note_ports = plugin->get_extension(plugin, CLAP_EXT_NOTE_PORTS);
    instance->state = plugin->get_extension(plugin, CLAP_EXT_STATE);
    read_ports(instance);
    instance->parameter_count = instance->params ? instance->params->count(plugin) : 0;
    return instance;
}

DetentClapShape detent_clap_shape(const DetentClapInstance *instance) {
    DetentClapShape shape = {0};
    if (instance->main_input >= 0) shape.inputs = instance->input_channels[instance->main_input];
    if (instance->main_output >= 0) shape.outputs = instance->output_channels[instance->main_output];
    if (instance->side_input >= 0) shape.sides = instance->input_channels[instance->side_input];
    shape.midi_input = instance->note_input;
    shape.midi_output = instance->note_output;
    shape.parameters = instance->parameter_count;
    return shape;
}

int detent_clap_parameter(const DetentClapInstance *instance, uint32_t index, DetentClapParameter *parameter) {
    clap_param_info_t info;
    memset(&info, 0, sizeof info);
    if (!instance->params || !instance->params->get_info(instance->plugin, index, &info)) return 0;
    parameter->id = info.id;
    parameter->flags = info.flags;
    parameter->minimum = info.min_value;
    parameter->maximum = info.max_value;
    parameter->default_value = info.default_value;
    snprintf(parameter->name, sizeof parameter->name, "%s", info.name);
    snprintf(parameter->module, sizeof parameter->module, "%s", info.module);
    return 1;
}

int detent_clap_value_text(const DetentClapInstance *instance, uint32_t id, double value, char *text, uint32_t size) {
    if (!instance->params || !instance->params->value_to_text || size == 0) return 0;
    text[0] = 0;
    return instance->params->value_to_text(instance->plugin, id, value, text, size) ? 1 : 0;
}

int detent_clap_text_value(const DetentClapInstance *instance, uint32_t id, const char *text, double *value) {
    if (!instance->params || !instance->params->text_to_value) return 0;
    double read = 0;
    if (!instance->params->text_to_value(instance->plugin, id, text, &read) || !isfinite(read)) return 0;
    *value = read;
    return 1;
}

uint32_t detent_clap_latency(const DetentClapInstance *instance) {
    return instance->latency && instance->active ? instance->latency->get(instance->plugin) : 0;
}

int detent_clap_probe_latency(DetentClapInstance *instance) {
    if (!instance->plugin->activate(instance->plugin, instance->sample_rate, 1, instance->max_frames)) return -1;
    instance->active = true;
    int frames = (int)detent_clap_latency(instance);
    instance->plugin->deactivate(instance->plugin);
    instance->active = false;
    return frames;
}

int detent_clap_has_state(const DetentClapInstance *instance) {
    return instance->state && instance->state->save && instance->state->load;
}

/// A state being written: a buffer that grows (off the audio thread), or failed.
typedef struct StateBuffer {
    uint8_t *bytes;
    size_t size, capacity;
    bool failed;
} StateBuffer;

static int64_t state_write(const clap_ostream_t *stream, const void *data, uint64_t size) {
    StateBuffer *buffer = stream->ctx;
    if (buffer->failed) return -1;
    if (buffer->size + size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 4096;
        while (capacity < buffer->size + size) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (!grown) { buffer->failed = true; return -1; }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->size, data, size);
    buffer->size += size;
    return (int64_t)size;
}

int detent_clap_save_state(DetentClapInstance *instance, uint8_t **bytes, size_t *size) {
    *bytes = NULL;
    *size = 0;
    if (!detent_clap_has_state(instance)) return 0;
    StateBuffer buffer = {0};
    clap_ostream_t stream = {.ctx = &buffer, .write = state_write};
    if (!instance->state->save(instance->plugin, &stream) || buffer.failed) {
        free(buffer.bytes);
        return 0;
    }
    *bytes = buffer.bytes ? buffer.bytes : malloc(1);
    *size = buffer.size;
    return *bytes != NULL;
}

/// A state being read: the bytes and how far the plug-in has read.
typedef struct StateReader {
    const uint8_t *bytes;
    size_t size, at;
} StateReader;

static int64_t state_read(const clap_istream_t *stream, void *data, uint64_t size) {
    StateReader *reader = stream->ctx;
    size_t left = reader->size - reader->at;
    size_t n = size < left ? (size_t)size : left;
    memcpy(data, reader->bytes + reader->at, n);
    reader->at += n;
    return (int64_t)n;
}

int detent_clap_load_state(DetentClapInstance *instance, const uint8_t *bytes, size_t size) {
    if (!detent_clap_has_state(instance)) return 0;
    StateReader reader = {bytes, size, 0};
    clap_istream_t stream = {.ctx = &reader, .read = state_read};
    return instance->state->load(instance->plugin, &stream) ? 1 : 0;
}

// The input and output event lists of a run.
static uint32_t events_size(const clap_input_events_t *list) {
    return ((const DetentClapInstance *)list->ctx)->event_count;
}
static const clap_event_header_t *events_get(const clap_input_events_t *list, uint32_t index) {
    const DetentClapInstance *instance = list->ctx;
    return index < instance->event_count ? &instance->events[index].header : NULL;
}
/// A value the plug-in tells: a read-only parameter's goes to its port, where the host reads
/// meters; a writable one's is counted (the plug-in moved its own control).
static bool events_push(const clap_output_events_t *list, const clap_event_header_t *event) {
    DetentClapInstance *instance = list->ctx;
    if (event->space_id != CLAP_CORE_EVENT_SPACE_ID || event->type != CLAP_EVENT_PARAM_VALUE) return true;
    const clap_event_param_value_t *value = (const clap_event_param_value_t *)event;
    for (uint32_t k = 0; k < instance->parameter_count; k++) {
        if (instance->parameters[k].id != value->param_id) continue;
        if ((instance->parameters[k].flags & CLAP_PARAM_IS_READONLY) && instance->values[k]) {
            *instance->values[k] = (float)value->value;
        } else if (instance->own) {
            // Not sent back: the host's value, unchanged, is not sent again until it moves.
            float told = (float)value->value;
            __atomic_store(&instance->own[k], &told, __ATOMIC_RELEASE);
            detent_own_change_noted();
        }
        break;
    }
    return true;
}

int detent_clap_prepare(DetentClapInstance *instance, uint32_t midi_capacity) {
    uint32_t n = instance->parameter_count;
    instance->parameters = calloc(n ? n : 1, sizeof *instance->parameters);
    instance->values = calloc(n ? n : 1, sizeof *instance->values);
    instance->sent = calloc(n ? n : 1, sizeof *instance->sent);
    instance->own = calloc(n ? n : 1, sizeof *instance->own);
    for (uint32_t k = 0; k < n; k++) {
        instance->sent[k] = NAN;
        if (instance->own) instance->own[k] = NAN;
        if (instance->params) instance->params->get_info(instance->plugin, k, &instance->parameters[k]);
    }
    uint32_t in_channels = 0, out_channels = 0;
    for (uint32_t i = 0; i < instance->input_ports; i++) in_channels += instance->input_channels[i];
    for (uint32_t i = 0; i < instance->output_ports; i++) out_channels += instance->output_channels[i];
    instance->inputs = calloc(instance->input_ports ? instance->input_ports : 1, sizeof *instance->inputs);
    instance->outputs = calloc(instance->output_ports ? instance->output_ports : 1, sizeof *instance->outputs);
    instance->input_pointers = calloc(in_channels ? in_channels : 1, sizeof(float *));
    instance->output_pointers = calloc(out_channels ? out_channels : 1, sizeof(float *));
    instance->silence = calloc(instance->max_frames ? instance->max_frames : 1, sizeof(float));
    instance->discard = calloc(instance->max_frames ? instance->max_frames : 1, sizeof(float));
    instance->event_capacity = n + midi_capacity;
    instance->events = calloc(instance->event_capacity ? instance->event_capacity : 1, sizeof *instance->events);
    if (!instance->parameters || !instance->values || !instance->sent || !instance->inputs || !instance->outputs
        || !instance->input_pointers || !instance->output_pointers || !instance->silence || !instance->discard
        || !instance->events) return 0;
    // Every channel starts on silence (inputs) or the discard (outputs); the loop connects
    // the main and side channels to its buffers.
    float **at = instance->input_pointers;
    for (uint32_t i = 0; i < instance->input_ports; i++) {
        instance->inputs[i].data32 = at;
        instance->inputs[i].channel_count = instance->input_channels[i];
        for (uint32_t c = 0; c < instance->input_channels[i]; c++) *at++ = instance->silence;
    }
    at = instance->output_pointers;
    for (uint32_t i = 0; i < instance->output_ports; i++) {
        instance->outputs[i].data32 = at;
        instance->outputs[i].channel_count = instance->output_channels[i];
        for (uint32_t c = 0; c < instance->output_channels[i]; c++) *at++ = instance->discard;
    }
    instance->in_events = (clap_input_events_t){.ctx = instance, .size = events_size, .get = events_get};
    instance->out_events = (clap_output_events_t){.ctx = instance, .try_push = events_push};
    return 1;
}

void detent_clap_destroy(DetentClapInstance *instance) {
    if (!instance) return;
    if (instance->processing) instance->plugin->stop_processing(instance->plugin);
    if (instance->active) instance->plugin->deactivate(instance->plugin);
    instance->plugin->destroy(instance->plugin);
    free(instance->input_channels);
    free(instance->output_channels);
    free(instance->parameters);
    free(instance->values);
    free(instance->sent);
    free(instance->own);
    free(instance->inputs);
    free(instance->outputs);
    free(instance->input_pointers);
    free(instance->output_pointers);
    free(instance->silence);
    free(instance->discard);
    free(instance->events);
    free(instance);
}

// The bridge: ports in the binary formats' layout (see the header).
static void bridge_connect(LV2_Handle handle, uint32_t port, void *data) {
    DetentClapInstance *instance = handle;
    uint32_t ins = instance->main_input >= 0 ? instance->input_channels[instance->main_input] : 0;
    uint32_t outs = instance->main_output >= 0 ? instance->output_channels[instance->main_output] : 0;
    uint32_t sides = instance->side_input >= 0 ? instance->input_channels[instance->side_input] : 0;
    if (port < ins) {
        instance->inputs[instance->main_input].data32[port] = data;
    } else if (port < ins + outs) {
        instance->outputs[instance->main_output].data32[port - ins] = data;
    } else if (port < ins + outs + sides) {
        instance->inputs[instance->side_input].data32[port - ins - outs] = data;
    } else if (port < ins + outs + sides + instance->parameter_count) {
        instance->values[port - ins - outs - sides] = data;
    } else if (port == ins + outs + sides + instance->parameter_count) {
        instance->midi = data;
    }
}

static void bridge_activate(LV2_Handle handle) {
    DetentClapInstance *instance = handle;
    if (instance->active) return;
    instance->active = instance->plugin->activate(instance->plugin, instance->sample_rate, 1, instance->max_frames);
    // Every parameter is sent again at the next run: activation may have forgotten them.
    for (uint32_t k = 0; k < instance->parameter_count; k++) instance->sent[k] = NAN;
    instance->steady_time = 0;
    instance->told.told_at = 0;
}

static void bridge_deactivate(LV2_Handle handle) {
    DetentClapInstance *instance = handle;
    if (instance->processing) instance->plugin->stop_processing(instance->plugin);
    instance->processing = false;
    if (instance->active) instance->plugin->deactivate(instance->plugin);
    instance->active = false;
}

/// The parameters whose values changed since they were last sent, at the run's first frame.
static void add_parameter_events(DetentClapInstance *instance) {
    for (uint32_t k = 0; k < instance->parameter_count && instance->event_count < instance->event_capacity; k++) {
        const clap_param_info_t *info = &instance->parameters[k];
        if ((info->flags & CLAP_PARAM_IS_READONLY) || !instance->values[k]) continue;
        float value = *instance->values[k];
        if (value == instance->sent[k]) continue;
        instance->sent[k] = value;
        clap_event_param_value_t *event = &instance->events[instance->event_count++].parameter;
        *event = (clap_event_param_value_t){
            .header = {.size = sizeof *event, .time = 0, .space_id = CLAP_CORE_EVENT_SPACE_ID, .type = CLAP_EVENT_PARAM_VALUE},
            .param_id = info->id, .cookie = info->cookie, .note_id = -1, .port_index = -1, .channel = -1, .key = -1,
            .value = value};
    }
}

/// The cycle's MIDI messages, at their frames: as MIDI where the note input takes it, else
/// notes on and off as CLAP note events.
static void add_midi_events(DetentClapInstance *instance, uint32_t frames) {
    if (!instance->midi || !instance->note_input) return;
    LV2_ATOM_SEQUENCE_FOREACH(instance->midi, ev) {
        if (instance->event_count >= instance->event_capacity) break;
        const uint8_t *bytes = (const uint8_t *)(ev + 1);
        uint32_t size = ev->body.size;
        if (size < 1 || size > 3) continue;
        uint32_t frame = ev->time.frames > 0 ? (uint32_t)ev->time.frames : 0;
        if (frame >= frames) frame = frames ? frames - 1 : 0;
        DetentClapEvent *event = &instance->events[instance->event_count];
        if (instance->note_input_midi) {
            event->midi = (clap_event_midi_t){
                .header = {.size = sizeof event->midi, .time = frame, .space_id = CLAP_CORE_EVENT_SPACE_ID, .type = CLAP_EVENT_MIDI},
                .port_index = 0, .data = {bytes[0], size > 1 ? bytes[1] : 0, size > 2 ? bytes[2] : 0}};
            instance->event_count++;
            continue;
        }
        uint8_t status = bytes[0] & 0xF0;
        if (size < 3 || (status != 0x80 && status != 0x90)) continue;
        bool on = status == 0x90 && bytes[2] > 0;
        event->note = (clap_event_note_t){
            .header = {.size = sizeof event->note, .time = frame, .space_id = CLAP_CORE_EVENT_SPACE_ID,
                       .type = on ? CLAP_EVENT_NOTE_ON : CLAP_EVENT_NOTE_OFF},
            .note_id = -1, .port_index = 0, .channel = bytes[0] & 0x0F, .key = bytes[1] & 0x7F, .velocity = bytes[2] / 127.0};
        instance->event_count++;
    }
}

/// The transport at the run's first frame: JACK's when the kernel told one, else rolling
/// from frame 0 at `tempo` (120 when never told) in 4/4.
static void update_transport(DetentClapInstance *instance) {
    DetentMusicalTime now = detent_musical_time(&instance->told, (uint64_t)instance->steady_time, instance->tempo,
                                                instance->sample_rate);
    double seconds = (double)now.frame / instance->sample_rate;
    instance->transport = (clap_event_transport_t){
        .header = {.size = sizeof instance->transport, .time = 0, .space_id = CLAP_CORE_EVENT_SPACE_ID, .type = CLAP_EVENT_TRANSPORT},
        .flags = CLAP_TRANSPORT_HAS_TEMPO | CLAP_TRANSPORT_HAS_BEATS_TIMELINE | CLAP_TRANSPORT_HAS_SECONDS_TIMELINE
            | CLAP_TRANSPORT_HAS_TIME_SIGNATURE | (now.rolling ? CLAP_TRANSPORT_IS_PLAYING : 0),
        .song_pos_beats = (clap_beattime)llround(now.quarters * (double)CLAP_BEATTIME_FACTOR),
        .song_pos_seconds = (clap_sectime)llround(seconds * (double)CLAP_SECTIME_FACTOR),
        .tempo = now.beats_per_minute,
        .bar_start = (clap_beattime)llround(now.bar_start_quarters * (double)CLAP_BEATTIME_FACTOR),
        .bar_number = (int32_t)now.bar,
        .tsig_num = (uint16_t)now.numerator,
        .tsig_denom = (uint16_t)now.denominator};
}

/// JACK's transport, told for the runs from now on (audio thread).
DETENT_TRANSPORT_EXTENSION(DetentClapInstance, told, instance->steady_time)

void detent_clap_set_tempo(DetentClapInstance *instance, double beats_per_minute) { instance->tempo = beats_per_minute; }

static void bridge_run(LV2_Handle handle, uint32_t frames) {
    DetentClapInstance *instance = handle;
    if (!instance->active) return;
    in_run = true;
    if (!instance->processing) instance->processing = instance->plugin->start_processing(instance->plugin);
    instance->event_count = 0;
    add_parameter_events(instance);
    add_midi_events(instance, frames);
    update_transport(instance);
    clap_process_t process = {
        .steady_time = instance->steady_time, .frames_count = frames, .transport = &instance->transport,
        .audio_inputs = instance->inputs, .audio_outputs = instance->outputs,
        .audio_inputs_count = instance->input_ports, .audio_outputs_count = instance->output_ports,
        .in_events = &instance->in_events, .out_events = &instance->out_events};
    instance->plugin->process(instance->plugin, &process);
    instance->steady_time += frames;
    in_run = false;
}

DETENT_BRIDGE_DESCRIPTOR("urn:detent:clap-bridge", detent_clap_bridge)

uint32_t detent_clap_take_own_changes(DetentClapInstance *instance, uint32_t *indices, double *values, uint32_t capacity) {
    uint32_t taken = 0;
    float none = NAN, told;
    for (uint32_t k = 0; k < instance->parameter_count && instance->own && taken < capacity; k++) {
        __atomic_exchange(&instance->own[k], &none, &told, __ATOMIC_ACQ_REL);
        if (isnan(told)) continue;
        indices[taken] = k;
        values[taken++] = told;
    }
    return taken;
}
