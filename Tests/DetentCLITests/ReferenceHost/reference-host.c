/* A minimal LV2 host of the tests' own, written from the LV2 specification alone, to compare
 * Detent's renders with where lv2apply and lv2file cannot run a plug-in (LSP's, with atom
 * ports). It reads raw interleaved 32-bit floats, connects audio ports in port order, gives
 * atom inputs an empty sequence and atom outputs a chunk, sets controls to their defaults or
 * to SYMBOL=VALUE arguments, and runs the whole input in blocks of 512 frames.
 *
 *   reference-host URI CHANNELS IN.raw OUT.raw [SYMBOL=VALUE]...
 *
 * Features: urid:map and options (sample rate 48 kHz, block lengths). */
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 512, ATOM_CAPACITY = 65536, MAX_PORTS = 1024 };

static char *uris[4096];
static unsigned uri_count;

static LV2_URID map(LV2_URID_Map_Handle handle, const char *uri) {
    (void)handle;
    for (unsigned i = 0; i < uri_count; i++)
        if (!strcmp(uris[i], uri)) return i + 1;
    uris[uri_count] = strdup(uri);
    return ++uri_count;
}

int main(int argc, char **argv) {
    if (argc < 5) return 64;
    const int channels = atoi(argv[2]);
    LilvWorld *world = lilv_world_new();
    lilv_world_load_all(world);
    LilvNode *uri = lilv_new_uri(world, argv[1]);
    const LilvPlugin *plugin = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), uri);
    if (!plugin) return 65;

    LV2_URID_Map map_data = {NULL, map};
    float rate = 48000;
    int32_t block = BLOCK, zero = 0, sequence = ATOM_CAPACITY;
    LV2_URID int_type = map(NULL, LV2_ATOM__Int);
    LV2_Options_Option options[] = {
        {LV2_OPTIONS_INSTANCE, 0, map(NULL, "http://lv2plug.in/ns/ext/parameters#sampleRate"), 4, map(NULL, LV2_ATOM__Float), &rate},
        {LV2_OPTIONS_INSTANCE, 0, map(NULL, "http://lv2plug.in/ns/ext/buf-size#minBlockLength"), 4, int_type, &zero},
        {LV2_OPTIONS_INSTANCE, 0, map(NULL, "http://lv2plug.in/ns/ext/buf-size#maxBlockLength"), 4, int_type, &block},
        {LV2_OPTIONS_INSTANCE, 0, map(NULL, "http://lv2plug.in/ns/ext/buf-size#sequenceSize"), 4, int_type, &sequence},
        {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
    };
    LV2_Feature map_feature = {LV2_URID__map, &map_data};
    LV2_Feature options_feature = {LV2_OPTIONS__options, options};
    const LV2_Feature *features[] = {&map_feature, &options_feature, NULL};
    LilvInstance *instance = lilv_plugin_instantiate(plugin, rate, features);
    if (!instance) return 69;

    LilvNode *audio = lilv_new_uri(world, LV2_CORE__AudioPort);
    LilvNode *control = lilv_new_uri(world, LV2_CORE__ControlPort);
    LilvNode *atom = lilv_new_uri(world, LV2_ATOM__AtomPort);
    LilvNode *input = lilv_new_uri(world, LV2_CORE__InputPort);
    const uint32_t ports = lilv_plugin_get_num_ports(plugin);
    if (ports > MAX_PORTS) return 65;
    static float values[MAX_PORTS];
    float *ins[64], *outs[64];
    int n_in = 0, n_out = 0;
    static LV2_Atom_Sequence *atom_outs[MAX_PORTS];
    int n_atom_out = 0;
    LV2_URID chunk = map(NULL, LV2_ATOM__Chunk), seq = map(NULL, LV2_ATOM__Sequence);
    for (uint32_t p = 0; p < ports; p++) {
        const LilvPort *port = lilv_plugin_get_port_by_index(plugin, p);
        const char *symbol = lilv_node_as_string(lilv_port_get_symbol(plugin, port));
        int is_input = lilv_port_is_a(plugin, port, input);
        if (lilv_port_is_a(plugin, port, audio)) {
            float *buffer = calloc(BLOCK, sizeof(float));
            if (is_input) ins[n_in++] = buffer; else outs[n_out++] = buffer;
            lilv_instance_connect_port(instance, p, buffer);
        } else if (lilv_port_is_a(plugin, port, control)) {
            LilvNode *def = NULL;
            lilv_port_get_range(plugin, port, &def, NULL, NULL);
            values[p] = def ? lilv_node_as_float(def) : 0;
            for (int a = 5; a < argc; a++) {
                size_t len = strlen(symbol);
                if (!strncmp(argv[a], symbol, len) && argv[a][len] == '=') values[p] = strtof(argv[a] + len + 1, NULL);
            }
            lilv_instance_connect_port(instance, p, &values[p]);
        } else if (lilv_port_is_a(plugin, port, atom)) {
            LV2_Atom_Sequence *buffer = calloc(1, ATOM_CAPACITY + sizeof(LV2_Atom_Sequence));
            if (is_input) {
                buffer->atom.size = sizeof(LV2_Atom_Sequence_Body);
                buffer->atom.type = seq;
            } else {
                atom_outs[n_atom_out++] = buffer;
            }
            lilv_instance_connect_port(instance, p, buffer);
        } else {
            lilv_instance_connect_port(instance, p, NULL);
        }
    }
    if (n_in != channels || n_out != channels) return 65;

    FILE *in = fopen(argv[3], "rb"), *out = fopen(argv[4], "wb");
    if (!in || !out) return 74;
    lilv_instance_activate(instance);
    float frame_buffer[BLOCK * 64];
    size_t frames;
    while ((frames = fread(frame_buffer, sizeof(float) * channels, BLOCK, in)) > 0) {
        for (size_t i = 0; i < frames; i++)
            for (int c = 0; c < channels; c++) ins[c][i] = frame_buffer[i * channels + c];
        for (int a = 0; a < n_atom_out; a++) {
            atom_outs[a]->atom.size = ATOM_CAPACITY;
            atom_outs[a]->atom.type = chunk;
        }
        lilv_instance_run(instance, (uint32_t)frames);
        for (size_t i = 0; i < frames; i++)
            for (int c = 0; c < channels; c++) frame_buffer[i * channels + c] = outs[c][i];
        fwrite(frame_buffer, sizeof(float) * channels, frames, out);
    }
    lilv_instance_deactivate(instance);
    lilv_instance_free(instance);
    fclose(in);
    return fclose(out) ? 74 : 0;
}
