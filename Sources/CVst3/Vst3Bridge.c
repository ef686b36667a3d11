// The bridge descriptor through which CPluginKernel's loop runs a VST3 plug-in: ports
// connected to the buses' channel pointers and the parameters' values, activation as VST3
// orders it (active, then processing), and each run one `process` call — the parameters whose
// values changed sent as changes at the run's first frame, the MIDI input's notes as events,
// the read-only parameters' changes written back to their values. A run allocates nothing:
// everything it fills was allocated by `detent_vst3_instance_ports`.

#include "Vst3Instance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// Events one run can carry (the rest of a crowded cycle is dropped).
#define VST3_EVENT_CAPACITY 1024
/// Queues the plug-in may fill with output changes beyond one per parameter.
#define VST3_SPARE_QUEUES 16

/// Lays the channel pointers of every bus of one direction out in `channels`, each pointing
/// at `fill`, and says where the bus `wanted` starts.
static void lay_out(DetentVst3Instance *instance, int32_t direction, int32_t count, struct v3_audio_bus_buffers *buses,
                    float **channels, float *fill, int32_t wanted, int32_t *first, int32_t side, int32_t *side_first) {
    int32_t at = 0;
    for (int32_t b = 0; b < count; b++) {
        struct v3_bus_info info;
        int32_t n = VST3_TABLE(instance->component, Vst3ComponentTable)
                            ->component.get_bus_info(instance->component, V3_AUDIO, direction, b, &info) == V3_OK
            ? info.channel_count : 0;
        if (n < 0) n = 0;
        buses[b].num_channels = n;
        buses[b].channel_silence_bitset = 0;
        buses[b].channel_buffers_32 = channels + at;
        for (int32_t c = 0; c < n; c++) channels[at + c] = fill;
        if (b == wanted) *first = at;
        if (b == side && side_first) *side_first = at;
        at += n;
    }
}

static int32_t channel_total(DetentVst3Instance *instance, int32_t direction, int32_t count) {
    int32_t total = 0;
    for (int32_t b = 0; b < count; b++) {
        struct v3_bus_info info;
        if (VST3_TABLE(instance->component, Vst3ComponentTable)
                ->component.get_bus_info(instance->component, V3_AUDIO, direction, b, &info) == V3_OK
            && info.channel_count > 0) {
            total += info.channel_count;
        }
    }
    return total;
}

bool detent_vst3_instance_ports(DetentVst3Instance *instance, int32_t inputs, int32_t outputs, int32_t sides, int32_t count,
                                const uint32_t *identifiers, const double *minimums, const double *maximums,
                                const bool *read_only, char *reason, size_t size) {
    if (instance->ported) {
        snprintf(reason, size, "was given its ports twice");
        return false;
    }
    if (inputs != instance->main_input_channels || outputs != instance->main_output_channels || sides != instance->side_channels) {
        snprintf(reason, size, "changed its buses since it was scanned (%d/%d/%d channels, now %d/%d/%d)", (int)inputs, (int)outputs,
                 (int)sides, (int)instance->main_input_channels, (int)instance->main_output_channels, (int)instance->side_channels);
        return false;
    }
    if (count < 0 || (count > 0 && (!identifiers || !minimums || !maximums || !read_only))) {
        snprintf(reason, size, "was not given its parameters");
        return false;
    }
    instance->ported = true;
    instance->inputs = inputs;
    instance->outputs = outputs;
    instance->sides = sides;
    instance->parameter_count = count;
    instance->midi_port = (uint32_t)(inputs + outputs + sides + count);

    int32_t in_total = channel_total(instance, V3_INPUT, instance->input_bus_count);
    int32_t out_total = channel_total(instance, V3_OUTPUT, instance->output_bus_count);
    size_t frames = (size_t)instance->max_frames;
    size_t slots = (size_t)(count > 0 ? count : 1);
    instance->input_buses = calloc((size_t)(instance->input_bus_count > 0 ? instance->input_bus_count : 1), sizeof *instance->input_buses);
    instance->output_buses = calloc((size_t)(instance->output_bus_count > 0 ? instance->output_bus_count : 1),
                                    sizeof *instance->output_buses);
    instance->input_channels = calloc((size_t)(in_total > 0 ? in_total : 1), sizeof(float *));
    instance->output_channels = calloc((size_t)(out_total > 0 ? out_total : 1), sizeof(float *));
    instance->silence = calloc(frames, sizeof(float));
    instance->scratch = calloc(frames, sizeof(float));
    instance->parameter_ids = calloc(slots, sizeof(v3_param_id));
    instance->minimums = calloc(slots, sizeof(double));
    instance->maximums = calloc(slots, sizeof(double));
    instance->read_only = calloc(slots, sizeof(bool));
    instance->values = calloc(slots, sizeof(float *));
    instance->sent = calloc(slots, sizeof(float));
    instance->edits = calloc(slots, sizeof(uint64_t));
    bool ok = instance->input_buses && instance->output_buses && instance->input_channels && instance->output_channels
        && instance->silence && instance->scratch && instance->parameter_ids && instance->minimums && instance->maximums
        && instance->read_only && instance->values && instance->sent && instance->edits
        && vst3_changes_init(&instance->input_changes, count + 1)
        && vst3_changes_init(&instance->output_changes, count + VST3_SPARE_QUEUES)
        && vst3_events_init(&instance->events, instance->event_input ? VST3_EVENT_CAPACITY : 0)
        && vst3_events_init(&instance->output_events, instance->event_output ? VST3_EVENT_CAPACITY : 0);
    if (!ok) {
        snprintf(reason, size, "ran out of memory");
        return false;
    }

    lay_out(instance, V3_INPUT, instance->input_bus_count, instance->input_buses, instance->input_channels, instance->silence,
            instance->main_input, &instance->main_input_first, instance->side_input, &instance->side_first);
    lay_out(instance, V3_OUTPUT, instance->output_bus_count, instance->output_buses, instance->output_channels, instance->scratch,
            instance->main_output, &instance->main_output_first, -1, NULL);

    double nan = NAN;
    uint64_t nan_bits;
    memcpy(&nan_bits, &nan, sizeof nan_bits);
    for (int32_t k = 0; k < count; k++) {
        instance->parameter_ids[k] = identifiers[k];
        instance->minimums[k] = minimums[k];
        instance->maximums[k] = maximums[k];
        instance->read_only[k] = read_only[k];
        instance->sent[k] = NAN;
        atomic_init(&instance->edits[k], nan_bits);
    }

    vst3_prime_values(instance);

    struct v3_process_data *data = &instance->data;
    data->process_mode = V3_REALTIME;
    data->symbolic_sample_size = V3_SAMPLE_32;
    data->num_input_buses = instance->input_bus_count;
    data->num_output_buses = instance->output_bus_count;
    data->inputs = instance->input_buses;
    data->outputs = instance->output_buses;
    data->input_params = (struct v3_param_changes **)&instance->input_changes;
    data->output_params = (struct v3_param_changes **)&instance->output_changes;
    data->input_events = instance->event_input ? (struct v3_event_list **)&instance->events : NULL;
    data->output_events = instance->event_output ? (struct v3_event_list **)&instance->output_events : NULL;
    data->ctx = &instance->context;
    return true;
}

// MARK: the descriptor

static void bridge_connect(LV2_Handle handle, uint32_t port, void *data) {
    DetentVst3Instance *instance = (DetentVst3Instance *)handle;
    if (!instance->ported) return;
    int32_t p = (int32_t)port;
    if (p < instance->inputs) {
        instance->input_channels[instance->main_input_first + p] = data ? (float *)data : instance->silence;
        return;
    }
    p -= instance->inputs;
    if (p < instance->outputs) {
        instance->output_channels[instance->main_output_first + p] = data ? (float *)data : instance->scratch;
        return;
    }
    p -= instance->outputs;
    if (p < instance->sides) {
        instance->input_channels[instance->side_first + p] = data ? (float *)data : instance->silence;
        return;
    }
    p -= instance->sides;
    if (p < instance->parameter_count) {
        instance->values[p] = (float *)data;
        return;
    }
    if (port == instance->midi_port) instance->midi = (const LV2_Atom_Sequence *)data;
}

void vst3_prime_values(DetentVst3Instance *instance) {
    void *controller = instance->controller;
    for (int32_t k = 0; k < instance->parameter_count; k++) {
        instance->sent[k] = NAN;
        if (instance->read_only[k] || !controller) continue;
        v3_param_id id = instance->parameter_ids[k];
        double normalized = VST3_TABLE(controller, Vst3ControllerTable)->controller.get_parameter_normalised(controller, id);
        if (!(normalized >= 0 && normalized <= 1)) continue;
        // The port's terms: the plain value as the scan read defaults (so a value the host
        // left at its default matches it to the bit), or the linear one for a row in 0…1.
        double low = instance->minimums[k], high = instance->maximums[k];
        double linear = low + normalized * (high - low);
        double plain = VST3_TABLE(controller, Vst3ControllerTable)->controller.normalised_parameter_to_plain(controller, id,
                                                                                                           normalized);
        double tolerance = 1e-6 * fmax(fabs(high - low), fmax(fabs(low), fabs(high)));
        instance->sent[k] = (float)(isfinite(plain) && fabs(plain - linear) <= tolerance ? plain : linear);
    }
    instance->primed = true;
}

static void update_context(DetentVst3Instance *instance);

/// Activates the component, then starts processing, and starts the timeline from zero. The
/// first activation keeps the values `vst3_prime_values` took, so a parameter whose value
/// the plug-in holds already is not sent (it keeps its own value exactly, which the round
/// trip through a normalized value may not: DPF maps ZamHeadX2's default elevation of 0 back
/// to 1.34e-6); every later one sends every parameter again at the next run.
static void bridge_activate(LV2_Handle handle) {
    DetentVst3Instance *instance = (DetentVst3Instance *)handle;
    if (!instance->active) {
        VST3_TABLE(instance->component, Vst3ComponentTable)->component.set_active(instance->component, 1);
        instance->active = true;
    }
    if (!instance->processing) {
        VST3_TABLE(instance->processor, Vst3ProcessorTable)->processor.set_processing(instance->processor, 1);
        instance->processing = true;
    }
    if (!instance->primed) {
        for (int32_t k = 0; k < instance->parameter_count; k++) instance->sent[k] = NAN;
    }
    instance->primed = false;
    memset(&instance->context, 0, sizeof instance->context);
    instance->context.sample_rate = instance->sample_rate;
    instance->transport.told_at = 0;
    update_context(instance);
}

static void bridge_deactivate(LV2_Handle handle) {
    DetentVst3Instance *instance = (DetentVst3Instance *)handle;
    if (instance->processing) {
        VST3_TABLE(instance->processor, Vst3ProcessorTable)->processor.set_processing(instance->processor, 0);
        instance->processing = false;
    }
    if (instance->active) {
        VST3_TABLE(instance->component, Vst3ComponentTable)->component.set_active(instance->component, 0);
        instance->active = false;
    }
}

/// Adds a change for every writable parameter whose value differs from the one sent last.
static void send_parameters(DetentVst3Instance *instance) {
    vst3_changes_clear(&instance->input_changes);
    for (int32_t k = 0; k < instance->parameter_count; k++) {
        const float *port = instance->values[k];
        if (instance->read_only[k] || !port) continue;
        float value = *port;
        if (value == instance->sent[k] || value != value) continue;
        double low = instance->minimums[k], high = instance->maximums[k];
        double normalized = high != low ? ((double)value - low) / (high - low) : 0.0;
        normalized = normalized < 0 ? 0 : normalized > 1 ? 1 : normalized;
        if (vst3_changes_add(&instance->input_changes, instance->parameter_ids[k], 0, normalized)) instance->sent[k] = value;
    }
}

/// Writes the last value of each read-only parameter the plug-in changed into its port value;
/// a writable one's is the plug-in's own change, unless it is the value the host sent.
static void receive_parameters(DetentVst3Instance *instance) {
    Vst3Changes *changes = &instance->output_changes;
    for (int32_t q = 0; q < changes->count; q++) {
        const Vst3Queue *queue = &changes->queues[q];
        if (queue->count <= 0) continue;
        for (int32_t k = 0; k < instance->parameter_count; k++) {
            if (instance->parameter_ids[k] != queue->identifier) continue;
            double low = instance->minimums[k], high = instance->maximums[k];
            double last = queue->values[queue->count - 1];
            if (instance->read_only[k] && instance->values[k]) {
                *instance->values[k] = (float)(low + last * (high - low));
            } else if (!instance->read_only[k]) {
                // Not the echo of the value the host sent (within the round trip's rounding).
                double sent = high != low ? ((double)instance->sent[k] - low) / (high - low) : 0.0;
                if (instance->sent[k] != instance->sent[k] || fabs(last - sent) > 1e-6) vst3_own_change(instance, k, last);
            }
            break;
        }
    }
}

/// The process context for a run starting at the frames run since activation (the context's
/// continuous time): the transport told (JACK's), else rolling from frame 0 at the engine's
/// tempo (`--bpm`, else 120) in 4/4.
static void update_context(DetentVst3Instance *instance) {
    struct v3_process_context *context = &instance->context;
    DetentMusicalTime now = detent_musical_time(&instance->transport, (uint64_t)context->continuous_time_in_samples,
                                                instance->tempo, instance->sample_rate);
    context->state = V3_PROCESS_CTX_TEMPO_VALID | V3_PROCESS_CTX_TIME_SIG_VALID | V3_PROCESS_CTX_CONT_TIME_VALID
        | V3_PROCESS_CTX_PROJECT_TIME_VALID | V3_PROCESS_CTX_BAR_POSITION_VALID
        | (now.rolling ? V3_PROCESS_CTX_PLAYING : 0);
    context->project_time_in_samples = now.frame;
    context->bpm = now.beats_per_minute;
    context->project_time_quarters = now.quarters;
    context->bar_position_quarters = now.bar_start_quarters;
    context->time_sig_numerator = now.numerator;
    context->time_sig_denom = now.denominator;
}

static void bridge_run(LV2_Handle handle, uint32_t frames) {
    DetentVst3Instance *instance = (DetentVst3Instance *)handle;
    // A run of no frames (the loop's way of asking for a latency, which VST3 reports
    // otherwise) is not passed on: some plug-ins return from such a `process` before reading
    // its parameter changes, which would then count as sent.
    if (!instance->ported || frames == 0) return;
    send_parameters(instance);
    if (instance->event_input) vst3_events_from_midi(&instance->events, instance->midi);
    vst3_changes_clear(&instance->output_changes);
    instance->output_events.count = 0;
    instance->data.nframes = (int32_t)frames;
    update_context(instance);
    VST3_TABLE(instance->processor, Vst3ProcessorTable)->processor.process(instance->processor, &instance->data);
    receive_parameters(instance);
    instance->context.continuous_time_in_samples += frames;
}

/// JACK's transport, told for the runs from now on (audio thread).
DETENT_TRANSPORT_EXTENSION(DetentVst3Instance, transport, instance->context.continuous_time_in_samples)

DETENT_BRIDGE_DESCRIPTOR("urn:detent:vst3-bridge", detent_vst3_bridge)

void detent_vst3_set_tempo(DetentVst3Instance *instance, double beats_per_minute) { instance->tempo = beats_per_minute; }
