// A CLAP plug-in that moves one of its own parameters, for the tests of changes a plug-in makes
// itself: `org.detent.test.linked` multiplies its mono input by `gain`, and whenever it is
// given a new `gain` it sets `follow` to half of it and tells the host so (an output
// CLAP_EVENT_PARAM_VALUE for a writable parameter), as a plug-in with linked controls, or one
// moved from its own editor, does.
#include <clap/entry.h>
#include <clap/ext/audio-ports.h>
#include <clap/ext/params.h>
#include <clap/plugin-factory.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    clap_plugin_t plugin;
    double gain, follow;
} Linked;

static const char *features[] = {CLAP_PLUGIN_FEATURE_AUDIO_EFFECT, NULL};
static const clap_plugin_descriptor_t descriptor = {
    .clap_version = CLAP_VERSION_INIT, .id = "org.detent.test.linked", .name = "Detent Linked Test",
    .vendor = "Detent tests", .url = "", .manual_url = "", .support_url = "", .version = "1.0",
    .description = "moves its own follow parameter", .features = features};

static bool init(const clap_plugin_t *p) { (void)p; return true; }
static void destroy(const clap_plugin_t *p) { free(p->plugin_data); }
static bool activate(const clap_plugin_t *p, double rate, uint32_t min, uint32_t max) { (void)p, (void)rate, (void)min, (void)max; return true; }
static void deactivate(const clap_plugin_t *p) { (void)p; }
static bool start(const clap_plugin_t *p) { (void)p; return true; }
static void stop(const clap_plugin_t *p) { (void)p; }
static void reset(const clap_plugin_t *p) { (void)p; }
static void main_thread(const clap_plugin_t *p) { (void)p; }

/// Takes the host's values; a new gain moves `follow`, told on `out` when there is one.
static void take(Linked *linked, const clap_input_events_t *in, const clap_output_events_t *out) {
    for (uint32_t i = 0, n = in->size(in); i < n; i++) {
        const clap_event_header_t *header = in->get(in, i);
        if (header->space_id != CLAP_CORE_EVENT_SPACE_ID || header->type != CLAP_EVENT_PARAM_VALUE) continue;
        const clap_event_param_value_t *event = (const clap_event_param_value_t *)header;
        if (event->param_id == 1) {
            linked->follow = event->value;
        } else if (event->param_id == 0 && event->value != linked->gain) {
            linked->gain = event->value;
            linked->follow = event->value / 2;
            if (!out) continue;
            clap_event_param_value_t told = {
                .header = {.size = sizeof told, .time = header->time, .space_id = CLAP_CORE_EVENT_SPACE_ID,
                           .type = CLAP_EVENT_PARAM_VALUE},
                .param_id = 1, .cookie = NULL, .note_id = -1, .port_index = -1, .channel = -1, .key = -1,
                .value = linked->follow};
            out->try_push(out, &told.header);
        }
    }
}

static clap_process_status process(const clap_plugin_t *p, const clap_process_t *process) {
    Linked *linked = p->plugin_data;
    take(linked, process->in_events, process->out_events);
    const float *in = process->audio_inputs[0].data32[0];
    float *out = process->audio_outputs[0].data32[0];
    for (uint32_t i = 0; i < process->frames_count; i++) out[i] = in[i] * (float)linked->gain;
    return CLAP_PROCESS_CONTINUE;
}

static uint32_t port_count(const clap_plugin_t *p, bool input) { (void)p, (void)input; return 1; }
static bool port_get(const clap_plugin_t *p, uint32_t index, bool input, clap_audio_port_info_t *info) {
    (void)p;
    if (index != 0) return false;
    *info = (clap_audio_port_info_t){.id = input ? 0 : 1, .flags = CLAP_AUDIO_PORT_IS_MAIN, .channel_count = 1,
                                     .port_type = CLAP_PORT_MONO, .in_place_pair = CLAP_INVALID_ID};
    strcpy(info->name, input ? "In" : "Out");
    return true;
}
static const clap_plugin_audio_ports_t ports = {port_count, port_get};

static uint32_t param_count(const clap_plugin_t *p) { (void)p; return 2; }
static bool param_info(const clap_plugin_t *p, uint32_t index, clap_param_info_t *info) {
    (void)p;
    if (index > 1) return false;
    memset(info, 0, sizeof *info);
    info->id = index;
    info->flags = CLAP_PARAM_IS_AUTOMATABLE;
    strcpy(info->name, index == 0 ? "Gain" : "Follow");
    info->min_value = 0;
    info->max_value = 1;
    info->default_value = index == 0 ? 1 : 0.5;
    return true;
}
static bool param_value(const clap_plugin_t *p, clap_id id, double *value) {
    Linked *linked = p->plugin_data;
    if (id > 1) return false;
    *value = id == 0 ? linked->gain : linked->follow;
    return true;
}
static bool to_text(const clap_plugin_t *p, clap_id id, double value, char *text, uint32_t size) { (void)p, (void)id, (void)value, (void)text, (void)size; return false; }
static bool from_text(const clap_plugin_t *p, clap_id id, const char *text, double *value) { (void)p, (void)id, (void)text, (void)value; return false; }
static void flush(const clap_plugin_t *p, const clap_input_events_t *in, const clap_output_events_t *out) {
    take(p->plugin_data, in, out);
}
static const clap_plugin_params_t params = {param_count, param_info, param_value, to_text, from_text, flush};

static const void *extension(const clap_plugin_t *p, const char *id) {
    (void)p;
    if (!strcmp(id, CLAP_EXT_AUDIO_PORTS)) return &ports;
    if (!strcmp(id, CLAP_EXT_PARAMS)) return &params;
    return NULL;
}

static const clap_plugin_t *create(const clap_plugin_factory_t *f, const clap_host_t *host, const char *id) {
    (void)f, (void)host;
    if (strcmp(id, descriptor.id)) return NULL;
    Linked *linked = calloc(1, sizeof *linked);
    linked->gain = 1;
    linked->follow = 0.5;
    linked->plugin = (clap_plugin_t){&descriptor, linked, init, destroy, activate, deactivate, start, stop, reset, process,
                                     extension, main_thread};
    return &linked->plugin;
}
static uint32_t plugin_count(const clap_plugin_factory_t *f) { (void)f; return 1; }
static const clap_plugin_descriptor_t *plugin_descriptor(const clap_plugin_factory_t *f, uint32_t index) {
    (void)f;
    return index == 0 ? &descriptor : NULL;
}
static const clap_plugin_factory_t factory = {plugin_count, plugin_descriptor, create};

static bool entry_init(const char *path) { (void)path; return true; }
static void entry_deinit(void) {}
static const void *entry_factory(const char *id) { return strcmp(id, CLAP_PLUGIN_FACTORY_ID) ? NULL : &factory; }

CLAP_EXPORT const clap_plugin_entry_t clap_entry = {CLAP_VERSION_INIT, entry_init, entry_deinit, entry_factory};
