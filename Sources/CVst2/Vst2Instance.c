#define _GNU_SOURCE
#include <stddef.h>
#include "Vst2Instance.h"

#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/// True when `address` lies in the library `library` (a `dlopen` handle) itself, not in one
/// it depends on nor in the program: a lookup by handle also searches the library's
/// dependencies, and a `main` from any of them is not a plug-in's.
static int belongs(void *library, void *address) {
    struct link_map *own = NULL, *found = NULL;
    Dl_info info;
    if (dlinfo(library, RTLD_DI_LINKMAP, &own) != 0 || !own) return 0;
    if (!dladdr1(address, &info, (void **)&found, RTLD_DL_LINKMAP) || !found) return 0;
    return own == found;
}

void *detent_vst2_entry(void *library) {
    // DPF's newer builds export only `main`.
    static const char *const names[] = {"VSTPluginMain", "main"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        void *entry = dlsym(library, names[i]);
        if (entry && belongs(library, entry)) return entry;
    }
    return NULL;
}

/// The record's buffers, sized from the plug-in's counts; 0 when memory ran out.
static int allocate_buffers(DetentVst2Instance *instance) {
    size_t ins = (size_t)instance->inputs, outs = (size_t)instance->outputs, parameters = (size_t)instance->parameters;
    // Never empty: `processReplacing` is given a valid array even without channels.
    instance->input_buffers = calloc(ins + 1, sizeof(float *));
    instance->output_buffers = calloc(outs + 1, sizeof(float *));
    instance->parameter_values = calloc(parameters + 1, sizeof(float *));
    instance->seen = calloc(parameters + 1, sizeof(float));
    instance->sent = calloc(parameters + 1, sizeof(float));
    instance->ranges = calloc(parameters + 1, sizeof(DetentVst2Range));
    instance->own = calloc(parameters + 1, sizeof(float));
    instance->events = calloc(1, sizeof(Vst2Events) + DETENT_VST2_EVENT_CAPACITY * sizeof(void *));
    instance->midi_events = calloc(DETENT_VST2_EVENT_CAPACITY, sizeof(Vst2MidiEvent));
    if (!instance->input_buffers || !instance->output_buffers || !instance->parameter_values || !instance->sent
        || !instance->seen || !instance->ranges || !instance->own || !instance->events || !instance->midi_events) {
        return 0;
    }
    for (size_t k = 0; k < parameters; k++) {
        instance->seen[k] = NAN;
        instance->own[k] = NAN;
        instance->ranges[k] = (DetentVst2Range){.minimum = 0, .maximum = 1, .logarithmic = 0};
    }
    for (uint32_t i = 0; i < DETENT_VST2_EVENT_CAPACITY; i++) {
        instance->midi_events[i].type = 1;
        instance->midi_events[i].byte_size = (int32_t)sizeof(Vst2MidiEvent);
        instance->events->events[i] = &instance->midi_events[i];
    }
    return 1;
}

static void free_record(DetentVst2Instance *instance) {
    free(instance->input_buffers);
    free(instance->output_buffers);
    free(instance->parameter_values);
    free(instance->seen);
    free(instance->sent);
    free(instance->ranges);
    free(instance->own);
    free(instance->events);
    free(instance->midi_events);
    free(instance->chunk);
    free(instance);
}

DetentVst2Instance *detent_vst2_open(void *entry, int32_t shell_id, double sample_rate, int32_t max_frames, const char **failure) {
    DetentVst2Instance *instance = calloc(1, sizeof *instance);
    if (!instance) {
        *failure = "could not be given memory";
        return NULL;
    }
    instance->shell_id = shell_id;
    instance->sample_rate = sample_rate;
    instance->max_frames = max_frames;
    instance->time.sample_rate = sample_rate;
    detent_vst2_update_time(instance);

    detent_vst2_set_loading(instance);
    vst_effect *effect = ((Vst2Entry)entry)(detent_vst2_host);
    if (!effect) {
        detent_vst2_set_loading(NULL);
        free_record(instance);
        *failure = "returned no plug-in from its entry point";
        return NULL;
    }
    if (effect->magic_number != VST_MAGICNUMBER) {
        detent_vst2_set_loading(NULL);
        free_record(instance);
        *failure = "returned something that is not a VST2 plug-in from its entry point";
        return NULL;
    }
    instance->effect = effect;
    effect->host_internal = instance;
    detent_vst2_dispatch(instance, vst2_open, 0, 0, NULL, 0);
    detent_vst2_set_loading(NULL);

    instance->inputs = effect->num_inputs > 0 ? effect->num_inputs : 0;
    instance->outputs = effect->num_outputs > 0 ? effect->num_outputs : 0;
    instance->parameters = effect->num_params > 0 ? effect->num_params : 0;
    instance->accumulates = !(effect->flags & vst2_flag_can_replace) || !effect->process_float;
    if (!allocate_buffers(instance)) {
        detent_vst2_dispatch(instance, vst2_close, 0, 0, NULL, 0);
        free_record(instance);
        *failure = "could not be given memory";
        return NULL;
    }
    // What the plug-in holds now is what it has: a value is sent only once it differs.
    for (int32_t k = 0; k < instance->parameters; k++) {
        instance->sent[k] = effect->get_parameter ? effect->get_parameter(effect, (uint32_t)k) : 0;
    }
    detent_vst2_dispatch(instance, vst2_set_sample_rate, 0, 0, NULL, (float)sample_rate);
    detent_vst2_dispatch(instance, vst2_set_block_size, 0, max_frames, NULL, 0);
    if (effect->flags & vst2_flag_can_double_replace) {
        // 0: single precision, the buffers Detent runs with.
        detent_vst2_dispatch(instance, vst2_process_precision, 0, 0, NULL, 0);
    }
    return instance;
}

/// A speaker arrangement of `channels` channels, its speakers' properties left zero (hosts
/// allocate as many as there are channels, past the header's nominal array).
static vst_speaker_arrangement *arrangement(int32_t channels) {
    size_t size = offsetof(vst_speaker_arrangement, speakers) + (size_t)channels * sizeof(vst_speaker_properties);
    vst_speaker_arrangement *a = calloc(1, size < sizeof *a ? sizeof *a : size);
    if (!a) return NULL;
    a->type = channels == 1 ? VST_ARRANGEMENT_TYPE_MONO : channels == 2 ? VST_ARRANGEMENT_TYPE_STEREO : VST_ARRANGEMENT_TYPE_CUSTOM;
    a->channels = channels;
    return a;
}

int32_t detent_vst2_arrange(DetentVst2Instance *instance, int32_t inputs, int32_t outputs) {
    vst_speaker_arrangement *in = arrangement(inputs), *out = arrangement(outputs);
    int32_t taken = 0;
    if (in && out) taken = detent_vst2_dispatch(instance, vst2_set_speaker_arrangement, 0, (intptr_t)in, out, 0) == 1;
    free(in);
    free(out);
    return taken;
}

void detent_vst2_close(DetentVst2Instance *instance) {
    // The plug-in frees its AEffect as it closes.
    detent_vst2_dispatch(instance, vst2_close, 0, 0, NULL, 0);
    free_record(instance);
}

void detent_vst2_info(DetentVst2Instance *instance, DetentVst2Info *info) {
    vst_effect *effect = instance->effect;
    memset(info, 0, sizeof *info);
    info->unique_id = effect->unique_id;
    info->version = effect->version;
    info->vendor_version = (int32_t)detent_vst2_dispatch(instance, vst2_vendor_version, 0, 0, NULL, 0);
    info->category = (int32_t)detent_vst2_dispatch(instance, vst2_category, 0, 0, NULL, 0);
    info->flags = effect->flags;
    info->inputs = instance->inputs;
    info->outputs = instance->outputs;
    info->parameters = instance->parameters;
    info->latency = effect->delay;
    info->programs = effect->num_programs > 0 ? effect->num_programs : 0;
    info->keeps_chunks = (effect->flags & vst2_flag_program_chunks) != 0;
    info->is_synth = (effect->flags & vst2_flag_is_synth) != 0 || info->category == vst2_category_synth;
    info->accumulates_only = instance->accumulates && effect->process != NULL;
    info->double_only = !(effect->flags & vst2_flag_can_replace) && (effect->flags & vst2_flag_can_double_replace);
    info->receives_midi = detent_vst2_dispatch(instance, vst2_can_do, 0, 0, (void *)"receiveVstMidiEvent", 0) > 0
        || detent_vst2_dispatch(instance, vst2_can_do, 0, 0, (void *)"receiveVstEvents", 0) > 0;
    info->sends_midi = detent_vst2_dispatch(instance, vst2_can_do, 0, 0, (void *)"sendVstMidiEvent", 0) > 0;
}

/// Copies a plug-in's answer into `text`: plug-ins write past the sizes VST2 gives (8 bytes
/// for a label), so they are given a large, zeroed buffer.
static void copy_out(const char *scratch, char *text, uint32_t size) {
    if (size == 0) return;
    size_t length = strnlen(scratch, size - 1);
    memcpy(text, scratch, length);
    text[length] = 0;
}

void detent_vst2_text(DetentVst2Instance *instance, DetentVst2Text which, char *text, uint32_t size) {
    char scratch[1024] = {0};
    int32_t opcode = which == DETENT_VST2_VENDOR ? vst2_vendor_string
        : which == DETENT_VST2_PRODUCT ? vst2_product_string : vst2_effect_name;
    detent_vst2_dispatch(instance, opcode, 0, 0, scratch, 0);
    scratch[sizeof scratch - 1] = 0;
    copy_out(scratch, text, size);
}

void detent_vst2_parameter(DetentVst2Instance *instance, int32_t index, DetentVst2ParameterInfo *info) {
    vst_effect *effect = instance->effect;
    char scratch[1024] = {0};
    memset(info, 0, sizeof *info);

    Vst2ParameterProperties properties;
    memset(&properties, 0, sizeof properties);
    int offered = detent_vst2_dispatch(instance, vst2_parameter_properties, index, 0, &properties, 0) != 0;
    properties.label[sizeof properties.label - 1] = 0;
    if (offered && properties.label[0]) {
        copy_out(properties.label, info->name, sizeof info->name);
    } else {
        detent_vst2_dispatch(instance, vst2_parameter_name, index, 0, scratch, 0);
        scratch[sizeof scratch - 1] = 0;
        copy_out(scratch, info->name, sizeof info->name);
    }
    memset(scratch, 0, sizeof scratch);
    detent_vst2_dispatch(instance, vst2_parameter_label, index, 0, scratch, 0);
    scratch[sizeof scratch - 1] = 0;
    copy_out(scratch, info->unit, sizeof info->unit);

    info->value = effect->get_parameter ? effect->get_parameter(effect, (uint32_t)index) : 0;
    if (offered) {
        if (properties.flags & vst2_parameter_is_switch) {
            info->steps = 1;
        } else if ((properties.flags & (vst2_parameter_integer_range | vst2_parameter_integer_step))
                   && properties.maximum > properties.minimum) {
            info->steps = properties.maximum - properties.minimum;
        }
    }
}

void detent_vst2_set_ranges(DetentVst2Instance *instance, int32_t count, const DetentVst2Range *ranges) {
    for (int32_t k = 0; k < count && k < instance->parameters; k++) {
        instance->ranges[k] = ranges[k];
        instance->seen[k] = NAN;
    }
}

float detent_vst2_normalized(DetentVst2Range range, float value) {
    double v = value, n;
    if (range.logarithmic && range.minimum > 0 && range.maximum > 0 && v > 0) {
        n = log(v / range.minimum) / log(range.maximum / range.minimum);
    } else if (range.logarithmic) {
        n = 0;
    } else {
        n = (v - range.minimum) / (range.maximum - range.minimum);
    }
    float normalized = (float)(n < 0 ? 0 : (n > 1 ? 1 : n));
    if (range.logarithmic || normalized <= 0 || normalized >= 1) return normalized;
    // A plug-in maps 0…1 back in floats (`n * (max - min) + min`, as DPF and JUCE do), which
    // misses some values by a step: of the neighbouring 0…1 values, the one that lands on
    // `value` itself is sent (a tube model's drive has been heard to change with one step).
    float low = (float)range.minimum, span = (float)range.maximum - low;
    float candidates[3] = {normalized, nextafterf(normalized, 0), nextafterf(normalized, 1)};
    for (int i = 0; i < 3; i++) {
        float product = candidates[i] * span;
        if (product + low == value) return candidates[i];
    }
    return normalized;
}

void detent_vst2_parameter_display(DetentVst2Instance *instance, int32_t index, float value, char *text, uint32_t size) {
    char scratch[1024] = {0};
    vst_effect *effect = instance->effect;
    if (effect->set_parameter) effect->set_parameter(effect, (uint32_t)index, value);
    detent_vst2_dispatch(instance, vst2_parameter_display, index, 0, scratch, 0);
    scratch[sizeof scratch - 1] = 0;
    copy_out(scratch, text, size);
}

int32_t detent_vst2_parameter_from_text(DetentVst2Instance *instance, int32_t index, const char *text, float *value) {
    char scratch[1024] = {0};
    strncpy(scratch, text, sizeof scratch - 1);
    vst_effect *effect = instance->effect;
    if (index < 0 || index >= instance->parameters || !effect->get_parameter
        || !detent_vst2_dispatch(instance, vst2_string_to_parameter, index, 0, scratch, 0)) return 0;
    float read = effect->get_parameter(effect, (uint32_t)index);
    if (!isfinite(read)) return 0;
    *value = read < 0 ? 0 : read > 1 ? 1 : read;
    return 1;
}

int32_t detent_vst2_shell_next(DetentVst2Instance *instance, char *name, uint32_t size) {
    char scratch[1024] = {0};
    int32_t id = (int32_t)detent_vst2_dispatch(instance, vst2_shell_next, 0, 0, scratch, 0);
    scratch[sizeof scratch - 1] = 0;
    copy_out(scratch, name, size);
    return id;
}

void detent_vst2_program_name(DetentVst2Instance *instance, int32_t index, char *text, uint32_t size) {
    char scratch[1024] = {0};
    // -1: no category (the call's value is a category index for plug-ins that have them).
    int answered = detent_vst2_dispatch(instance, vst2_program_name_indexed, index, -1, scratch, 0) != 0;
    scratch[sizeof scratch - 1] = 0;
    if (!answered || !scratch[0]) {
        memset(scratch, 0, sizeof scratch);
        detent_vst2_select_program(instance, index);
        detent_vst2_dispatch(instance, vst2_program_name, 0, 0, scratch, 0);
        scratch[sizeof scratch - 1] = 0;
    }
    copy_out(scratch, text, size);
}

int32_t detent_vst2_current_program(DetentVst2Instance *instance) {
    return (int32_t)detent_vst2_dispatch(instance, vst2_get_program, 0, 0, NULL, 0);
}

void detent_vst2_select_program(DetentVst2Instance *instance, int32_t index) {
    detent_vst2_dispatch(instance, vst2_set_program, 0, index, NULL, 0);
}

float detent_vst2_parameter_value(DetentVst2Instance *instance, int32_t index) {
    vst_effect *effect = instance->effect;
    if (index < 0 || index >= instance->parameters || !effect->get_parameter) return 0;
    return effect->get_parameter(effect, (uint32_t)index);
}

void detent_vst2_use_program_port(DetentVst2Instance *instance) { instance->uses_program_port = 1; }

int64_t detent_vst2_chunk(DetentVst2Instance *instance, const void **data) {
    void *bytes = NULL;
    intptr_t size = detent_vst2_dispatch(instance, vst2_get_chunk, 0, 0, &bytes, 0);
    if (size <= 0 || !bytes) {
        *data = NULL;
        return 0;
    }
    *data = bytes;
    return (int64_t)size;
}

int32_t detent_vst2_set_chunk(DetentVst2Instance *instance, const void *data, int64_t size) {
    void *copy = malloc(size > 0 ? (size_t)size : 1);
    if (!copy) return 0;
    if (size > 0) memcpy(copy, data, (size_t)size);
    detent_vst2_dispatch(instance, vst2_set_chunk, 0, (intptr_t)size, copy, 0);
    free(instance->chunk);
    instance->chunk = copy;
    return 1;
}

int32_t detent_vst2_latency(DetentVst2Instance *instance) { return instance->effect->delay; }

/// A port value in `range` for the 0…1 value `normalized`: the inverse of
/// `detent_vst2_normalized`.
static double plain(DetentVst2Range range, float normalized) {
    double n = normalized < 0 ? 0 : (normalized > 1 ? 1 : normalized);
    if (range.logarithmic && range.minimum > 0 && range.maximum > 0) return range.minimum * pow(range.maximum / range.minimum, n);
    return range.minimum + n * (range.maximum - range.minimum);
}

uint32_t detent_vst2_take_own_changes(DetentVst2Instance *instance, uint32_t *indices, double *values, uint32_t capacity) {
    uint32_t taken = 0;
    float none = NAN, told;
    for (int32_t k = 0; k < instance->parameters && instance->own && taken < capacity; k++) {
        __atomic_exchange(&instance->own[k], &none, &told, __ATOMIC_ACQ_REL);
        if (isnan(told)) continue;
        indices[taken] = (uint32_t)k;
        values[taken++] = plain(instance->ranges[k], told);
    }
    return taken;
}
