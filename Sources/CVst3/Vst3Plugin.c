// One VST3 plug-in instance made and unmade, and what a scan reads of it: the component and
// its controller (the same object when the component implements the controller, else one the
// factory makes from the controller's class id), connected through their connection points,
// the controller given the component's state; the processor with the buses arranged and the
// processing set up. Everything here runs off the audio thread (where the instance is made).

#include "Vst3Instance.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(char *reason, size_t size, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(reason, size, format, arguments);
    va_end(arguments);
}

static bool parse_identifier(const char *text, v3_tuid id) {
    if (strlen(text) != 32) return false;
    for (int i = 0; i < 16; i++) {
        unsigned value;
        char pair[3] = {text[2 * i], text[2 * i + 1], 0};
        char *end;
        value = (unsigned)strtoul(pair, &end, 16);
        if (*end != 0) return false;
        id[i] = (uint8_t)value;
    }
    return true;
}

static bool is_zero(const v3_tuid id) {
    for (int i = 0; i < 16; i++) {
        if (id[i]) return false;
    }
    return true;
}

#define COMPONENT(i) VST3_TABLE((i)->component, Vst3ComponentTable)
#define CONTROLLER(i) VST3_TABLE((i)->controller, Vst3ControllerTable)
#define PROCESSOR(i) VST3_TABLE((i)->processor, Vst3ProcessorTable)

/// Finds the main and side-chain buses and their channels, and whether there are event buses.
static void read_buses(DetentVst3Instance *instance) {
    void *c = instance->component;
    instance->input_bus_count = COMPONENT(instance)->component.get_bus_count(c, V3_AUDIO, V3_INPUT);
    instance->output_bus_count = COMPONENT(instance)->component.get_bus_count(c, V3_AUDIO, V3_OUTPUT);
    if (instance->input_bus_count < 0) instance->input_bus_count = 0;
    if (instance->output_bus_count < 0) instance->output_bus_count = 0;
    instance->main_input = instance->main_output = instance->side_input = -1;
    instance->main_input_channels = instance->main_output_channels = instance->side_channels = 0;
    for (int32_t b = 0; b < instance->input_bus_count; b++) {
        struct v3_bus_info info;
        if (COMPONENT(instance)->component.get_bus_info(c, V3_AUDIO, V3_INPUT, b, &info) != V3_OK) continue;
        if (info.bus_type == V3_MAIN && instance->main_input < 0) {
            instance->main_input = b;
            instance->main_input_channels = info.channel_count;
        } else if (info.bus_type == V3_AUX && instance->side_input < 0) {
            instance->side_input = b;
            instance->side_channels = info.channel_count;
        }
    }
    for (int32_t b = 0; b < instance->output_bus_count; b++) {
        struct v3_bus_info info;
        if (COMPONENT(instance)->component.get_bus_info(c, V3_AUDIO, V3_OUTPUT, b, &info) != V3_OK) continue;
        if (info.bus_type == V3_MAIN && instance->main_output < 0) {
            instance->main_output = b;
            instance->main_output_channels = info.channel_count;
        }
    }
    instance->event_input = COMPONENT(instance)->component.get_bus_count(c, V3_EVENT, V3_INPUT) > 0;
    instance->event_output = COMPONENT(instance)->component.get_bus_count(c, V3_EVENT, V3_OUTPUT) > 0;
}

/// The arrangement of a bus of `channels` channels when the plug-in does not say its own:
/// that many speakers, from the first.
static v3_speaker_arrangement arrangement_for(int32_t channels) {
    if (channels == 1) return V3_SPEAKER_M;
    if (channels <= 0) return 0;
    return channels >= 64 ? ~(v3_speaker_arrangement)0 : (((v3_speaker_arrangement)1 << channels) - 1);
}

/// Asks the processor to keep each bus's own arrangement (some plug-ins only settle their
/// buses when asked), then reads the buses again.
static void arrange_buses(DetentVst3Instance *instance) {
    int32_t ins = instance->input_bus_count, outs = instance->output_bus_count;
    v3_speaker_arrangement inputs[ins > 0 ? ins : 1], outputs[outs > 0 ? outs : 1];
    for (int32_t b = 0; b < ins; b++) {
        struct v3_bus_info info;
        int32_t channels = COMPONENT(instance)->component.get_bus_info(instance->component, V3_AUDIO, V3_INPUT, b, &info) == V3_OK
            ? info.channel_count : 0;
        if (PROCESSOR(instance)->processor.get_bus_arrangement(instance->processor, V3_INPUT, b, &inputs[b]) != V3_OK) {
            inputs[b] = arrangement_for(channels);
        }
    }
    for (int32_t b = 0; b < outs; b++) {
        struct v3_bus_info info;
        int32_t channels = COMPONENT(instance)->component.get_bus_info(instance->component, V3_AUDIO, V3_OUTPUT, b, &info) == V3_OK
            ? info.channel_count : 0;
        if (PROCESSOR(instance)->processor.get_bus_arrangement(instance->processor, V3_OUTPUT, b, &outputs[b]) != V3_OK) {
            outputs[b] = arrangement_for(channels);
        }
    }
    if (ins + outs > 0) PROCESSOR(instance)->processor.set_bus_arrangements(instance->processor, inputs, ins, outputs, outs);
    read_buses(instance);
}

/// Activates the buses the host connects: the main input and output, the side chain, the
/// first event input.
static void activate_buses(DetentVst3Instance *instance) {
    void *c = instance->component;
    if (instance->main_input >= 0) COMPONENT(instance)->component.activate_bus(c, V3_AUDIO, V3_INPUT, instance->main_input, 1);
    if (instance->main_output >= 0) COMPONENT(instance)->component.activate_bus(c, V3_AUDIO, V3_OUTPUT, instance->main_output, 1);
    if (instance->side_input >= 0) COMPONENT(instance)->component.activate_bus(c, V3_AUDIO, V3_INPUT, instance->side_input, 1);
    if (instance->event_input) COMPONENT(instance)->component.activate_bus(c, V3_EVENT, V3_INPUT, 0, 1);
}

/// True when the controller lists a parameter the host writes (not read-only, hidden or the
/// program change, as the scan leaves those out).
static bool has_writable_parameters(DetentVst3Instance *instance) {
    if (!instance->controller) return false;
    int32_t count = CONTROLLER(instance)->controller.get_parameter_count(instance->controller);
    for (int32_t index = 0; index < count; index++) {
        struct v3_param_info info;
        memset(&info, 0, sizeof info);
        if (CONTROLLER(instance)->controller.get_parameter_info(instance->controller, index, &info) != V3_OK) continue;
        if (!(info.flags & (V3_PARAM_READ_ONLY | V3_PARAM_IS_HIDDEN | V3_PARAM_PROGRAM_CHANGE))) return true;
    }
    return false;
}

/// Gives the component its own state back, then gives a separate controller that state, as
/// a host does after creating both (not an empty one: some controllers take that for a broken
/// state).
///
/// The component's own state is given back because a processor may take the values it was
/// made with to be its parameters' defaults and drop a change to a value it believes it
/// holds, while the plug-in inside started from other values (DPF's wrapper does so, and
/// ZamGrains starts at a 1000 ms loop, not its 160 ms default): the state carries the values
/// the plug-in really holds, and once restored the processor believes those, so the host's
/// first values all land. A plug-in without writable parameters has nothing to align, and
/// its controller (which serves this host only its parameters) nothing to learn: both are
/// spared (DPF's wrapper cannot read back the one-byte state such a plug-in writes).
static void settle_state(DetentVst3Instance *instance) {
    if (!has_writable_parameters(instance)) return;
    v3_result result;
    void *stream = vst3_component_state(instance, &result);
    if (!stream) return;
    size_t size = 0;
    vst3_memory_stream_bytes(stream, &size);
    if (size > 0) COMPONENT(instance)->component.set_state(instance->component, (struct v3_bstream **)stream);
    if (size > 0 && instance->separate_controller) {
        VST3_TABLE(stream, Vst3StreamTable)->stream.seek(stream, 0, V3_SEEK_SET, NULL);
        CONTROLLER(instance)->controller.set_component_state(instance->controller, (struct v3_bstream **)stream);
    }
    vst3_release(stream);
}

/// Makes the controller: the component itself when it implements one, else the class the
/// component names, made by the factory and initialised.
static void make_controller(DetentVst3Instance *instance, void *factory) {
    instance->controller = vst3_query(instance->component, v3_edit_controller_iid);
    if (instance->controller) return;
    v3_tuid cid;
    memset(cid, 0, sizeof cid);
    if (COMPONENT(instance)->component.get_controller_class_id(instance->component, cid) != V3_OK || is_zero(cid)) return;
    void *controller = NULL;
    if (VST3_TABLE(factory, Vst3FactoryTable)->factory.create_instance(factory, cid, v3_edit_controller_iid, &controller) != V3_OK
        || !controller) {
        return;
    }
    instance->controller = controller;
    instance->separate_controller = true;
    if (CONTROLLER(instance)->base.initialize(controller, vst3_host_application()) != V3_OK) {
        vst3_release(controller);
        instance->controller = NULL;
        instance->separate_controller = false;
        return;
    }
    instance->controller_initialized = true;
}

/// Connects a separate component and controller through their connection points, when both
/// have one.
static void connect_points(DetentVst3Instance *instance) {
    void *a = vst3_query(instance->component, v3_connection_point_iid);
    void *b = vst3_query(instance->controller, v3_connection_point_iid);
    if (!a || !b) {
        vst3_release(a);
        vst3_release(b);
        return;
    }
    instance->component_point = a;
    instance->controller_point = b;
    VST3_TABLE(a, Vst3ConnectionTable)->connection.connect(a, b);
    VST3_TABLE(b, Vst3ConnectionTable)->connection.connect(b, a);
}

DetentVst3Instance *detent_vst3_instance_new(const DetentVst3Module *module, const char *identifier, double sample_rate,
                                             int32_t max_frames, char *reason, size_t size) {
    v3_tuid cid;
    if (!parse_identifier(identifier, cid)) {
        fail(reason, size, "has no VST3 class id '%.40s'", identifier);
        return NULL;
    }
    DetentVst3Instance *instance = calloc(1, sizeof *instance);
    if (!instance) {
        fail(reason, size, "ran out of memory");
        return NULL;
    }
    instance->sample_rate = sample_rate;
    instance->max_frames = max_frames > 0 ? max_frames : 1;
    instance->main_input = instance->main_output = instance->side_input = -1;
    vst3_handler_init(&instance->handler, instance);
    atomic_init(&instance->restart_flags, 0);

    void *factory = module->factory, *component = NULL;
    if (VST3_TABLE(factory, Vst3FactoryTable)->factory.create_instance(factory, cid, v3_component_iid, &component) != V3_OK
        || !component) {
        fail(reason, size, "was not made by its factory");
        free(instance);
        return NULL;
    }
    instance->component = component;
    if (COMPONENT(instance)->base.initialize(component, vst3_host_application()) != V3_OK) {
        fail(reason, size, "failed to initialise");
        detent_vst3_instance_free(instance);
        return NULL;
    }
    instance->component_initialized = true;

    make_controller(instance, factory);
    if (instance->separate_controller) connect_points(instance);
    settle_state(instance);
    if (instance->controller) {
        CONTROLLER(instance)->controller.set_component_handler(instance->controller,
                                                              (struct v3_component_handler **)&instance->handler);
    }

    instance->processor = vst3_query(component, v3_audio_processor_iid);
    if (!instance->processor) {
        fail(reason, size, "has no audio processor");
        detent_vst3_instance_free(instance);
        return NULL;
    }
    if (PROCESSOR(instance)->processor.can_process_sample_size(instance->processor, V3_SAMPLE_32) != V3_OK) {
        fail(reason, size, "processes 64-bit samples only");
        detent_vst3_instance_free(instance);
        return NULL;
    }
    read_buses(instance);
    arrange_buses(instance);
    activate_buses(instance);
    struct v3_process_setup setup = {
        .process_mode = V3_REALTIME,
        .symbolic_sample_size = V3_SAMPLE_32,
        .max_block_size = instance->max_frames,
        .sample_rate = sample_rate,
    };
    if (PROCESSOR(instance)->processor.setup_processing(instance->processor, &setup) != V3_OK) {
        fail(reason, size, "did not accept %.0f Hz and blocks of %d frames", sample_rate, (int)instance->max_frames);
        detent_vst3_instance_free(instance);
        return NULL;
    }
    return instance;
}

void detent_vst3_instance_free(DetentVst3Instance *instance) {
    if (!instance) return;
    if (instance->processing) PROCESSOR(instance)->processor.set_processing(instance->processor, 0);
    if (instance->active) COMPONENT(instance)->component.set_active(instance->component, 0);
    instance->processing = instance->active = false;
    if (instance->component_point && instance->controller_point) {
        VST3_TABLE(instance->component_point, Vst3ConnectionTable)->connection.disconnect(instance->component_point,
                                                                                          instance->controller_point);
        VST3_TABLE(instance->controller_point, Vst3ConnectionTable)->connection.disconnect(instance->controller_point,
                                                                                           instance->component_point);
    }
    vst3_release(instance->component_point);
    vst3_release(instance->controller_point);
    if (instance->controller_initialized) CONTROLLER(instance)->base.terminate(instance->controller);
    if (instance->component_initialized) COMPONENT(instance)->base.terminate(instance->component);
    vst3_release(instance->processor);
    vst3_release(instance->controller);
    vst3_release(instance->component);

    vst3_changes_free(&instance->input_changes);
    vst3_changes_free(&instance->output_changes);
    vst3_events_free(&instance->events);
    vst3_events_free(&instance->output_events);
    free(instance->input_buses);
    free(instance->output_buses);
    free(instance->input_channels);
    free(instance->output_channels);
    free(instance->silence);
    free(instance->scratch);
    free(instance->parameter_ids);
    free(instance->minimums);
    free(instance->maximums);
    free(instance->read_only);
    free(instance->values);
    free(instance->sent);
    free((void *)instance->edits);
    free(instance);
}

DetentVst3Buses detent_vst3_instance_buses(const DetentVst3Instance *instance) {
    return (DetentVst3Buses){
        .inputs = instance->main_input_channels,
        .outputs = instance->main_output_channels,
        .sides = instance->side_channels,
        .midi_input = instance->event_input,
        .midi_output = instance->event_output,
    };
}

int32_t detent_vst3_parameter_count(const DetentVst3Instance *instance) {
    if (!instance->controller) return 0;
    int32_t count = CONTROLLER(instance)->controller.get_parameter_count(instance->controller);
    return count > 0 ? count : 0;
}

/// True when the controller's plain values are `low + n * (high - low)` for a normalized `n`
/// (checked at every step of a stepped parameter, at a quarter, a half and three quarters
/// of another), within a millionth of the range.
static bool is_linear(const DetentVst3Instance *instance, v3_param_id id, int32_t steps, double low, double high) {
    double tolerance = 1e-6 * fmax(fabs(high - low), fmax(fabs(low), fabs(high)));
    int32_t points = steps > 0 && steps <= 256 ? steps : 4;
    for (int32_t k = 1; k < points; k++) {
        double n = (double)k / points;
        double plain = CONTROLLER(instance)->controller.normalised_parameter_to_plain(instance->controller, id, n);
        if (!isfinite(plain) || fabs(plain - (low + n * (high - low))) > tolerance) return false;
    }
    return true;
}

bool detent_vst3_parameter(const DetentVst3Instance *instance, int32_t index, DetentVst3Parameter *out) {
    memset(out, 0, sizeof *out);
    if (!instance->controller) return false;
    struct v3_param_info info;
    memset(&info, 0, sizeof info);
    if (CONTROLLER(instance)->controller.get_parameter_info(instance->controller, index, &info) != V3_OK) return false;
    out->identifier = info.param_id;
    vst3_utf8(info.title, 128, out->name, sizeof out->name);
    vst3_utf8(info.units, 128, out->unit, sizeof out->unit);
    out->steps = info.step_count > 0 ? info.step_count : 0;
    out->flags = info.flags;
    out->is_read_only = (info.flags & V3_PARAM_READ_ONLY) != 0;
    out->is_bypass = (info.flags & V3_PARAM_IS_BYPASS) != 0;
    out->is_list = (info.flags & V3_PARAM_IS_LIST) != 0;
    out->is_hidden = (info.flags & V3_PARAM_IS_HIDDEN) != 0;
    out->is_program_change = (info.flags & V3_PARAM_PROGRAM_CHANGE) != 0;
    double normalized = info.default_normalised_value;
    if (!isfinite(normalized)) normalized = 0;
    normalized = fmin(fmax(normalized, 0), 1);
    out->default_normalized = normalized;
    double (*plain)(void *, v3_param_id, double) = CONTROLLER(instance)->controller.normalised_parameter_to_plain;
    double low = plain(instance->controller, info.param_id, 0), high = plain(instance->controller, info.param_id, 1);
    if (isfinite(low) && isfinite(high) && low != high && is_linear(instance, info.param_id, out->steps, low, high)) {
        out->is_plain = true;
        out->minimum = low;
        out->maximum = high;
        out->default_value = plain(instance->controller, info.param_id, normalized);
        if (!isfinite(out->default_value)) out->default_value = low + normalized * (high - low);
    } else {
        out->minimum = 0;
        out->maximum = 1;
        out->default_value = normalized;
    }
    return true;
}

bool detent_vst3_parameter_text(const DetentVst3Instance *instance, uint32_t identifier, double normalized, char *out,
                                size_t size) {
    if (size) out[0] = 0;
    if (!instance->controller) return false;
    v3_str_128 text;
    memset(text, 0, sizeof text);
    if (CONTROLLER(instance)->controller.get_parameter_string_for_value(instance->controller, identifier, normalized, text)
        != V3_OK) {
        return false;
    }
    vst3_utf8(text, 128, out, size);
    return true;
}

bool detent_vst3_parameter_from_text(const DetentVst3Instance *instance, uint32_t identifier, const char *text,
                                     double *normalized) {
    if (!instance->controller) return false;
    v3_str_128 wide;
    memset(wide, 0, sizeof wide);
    vst3_utf16(text, wide, 128);
    double value = 0;
    if (CONTROLLER(instance)->controller.get_parameter_value_for_string(instance->controller, identifier, wide, &value) != V3_OK
        || !isfinite(value)) {
        return false;
    }
    *normalized = value < 0 ? 0 : value > 1 ? 1 : value;
    return true;
}

double detent_vst3_parameter_normalized(const DetentVst3Instance *instance, uint32_t identifier) {
    if (!instance->controller) return 0;
    return CONTROLLER(instance)->controller.get_parameter_normalised(instance->controller, identifier);
}

bool detent_vst3_set_parameter_normalized(DetentVst3Instance *instance, uint32_t identifier, double normalized) {
    if (!instance->controller) return false;
    return CONTROLLER(instance)->controller.set_parameter_normalised(instance->controller, identifier, normalized) == V3_OK;
}

uint32_t detent_vst3_latency(const DetentVst3Instance *instance) {
    return PROCESSOR(instance)->processor.get_latency_samples(instance->processor);
}
