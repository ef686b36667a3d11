#define _GNU_SOURCE  // PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP
#include "PluginKernel.h"
#include "BinaryTransport.h"
#include "CRealtime.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static uint32_t padded(uint32_t size) { return (size + 7u) & ~7u; }

enum { record_header = 8 };
static const uint32_t wrap_marker = 0xFFFFFFFFu;

int detent_ring_write(DetentByteRing *ring, const void *data, uint32_t size) {
    if (!ring->data || size > ring->capacity) return 0;
    uint32_t need = record_header + padded(size);
    uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
    uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
    uint32_t space = ring->capacity - (head - tail);
    uint32_t at = head % ring->capacity;
    uint32_t contiguous = ring->capacity - at;
    if (need > contiguous) {
        // The record goes to the start; the end is skipped, marked for the reader.
        if (contiguous + need > space) return 0;
        memcpy(ring->data + at, &wrap_marker, sizeof wrap_marker);
        head += contiguous;
        at = 0;
    } else if (need > space) {
        return 0;
    }
    memcpy(ring->data + at, &size, sizeof size);
    if (size) memcpy(ring->data + at + record_header, data, size);
    __atomic_store_n(&ring->head, head + need, __ATOMIC_RELEASE);
    return 1;
}

const uint8_t *detent_ring_peek(DetentByteRing *ring, uint32_t *size) {
    if (!ring->data) return NULL;
    uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_RELAXED);
    uint32_t head = __atomic_load_n(&ring->head, __ATOMIC_ACQUIRE);
    if (tail == head) return NULL;
    uint32_t at = tail % ring->capacity;
    uint32_t stored;
    memcpy(&stored, ring->data + at, sizeof stored);
    if (stored == wrap_marker) {
        tail += ring->capacity - at;
        __atomic_store_n(&ring->tail, tail, __ATOMIC_RELEASE);
        if (tail == head) return NULL;
        at = 0;
        memcpy(&stored, ring->data, sizeof stored);
    }
    *size = stored;
    return ring->data + at + record_header;
}

void detent_ring_consume(DetentByteRing *ring, uint32_t size) {
    uint32_t tail = __atomic_load_n(&ring->tail, __ATOMIC_RELAXED);
    __atomic_store_n(&ring->tail, tail + record_header + padded(size), __ATOMIC_RELEASE);
}

/// The worker's `respond`: keeps a copy for delivery after `run`.
static LV2_Worker_Status respond(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    DetentLV2Instance *instance = (DetentLV2Instance *)handle;
    uint32_t needed = (uint32_t)sizeof(uint32_t) + padded(size);
    if (!instance->responses || size > instance->response_capacity
        || instance->response_capacity - instance->response_used < needed) {
        instance->responses_refused++;
        return LV2_WORKER_ERR_NO_SPACE;
    }
    uint8_t *at = instance->responses + instance->response_used;
    memcpy(at, &size, sizeof(uint32_t));
    if (size) memcpy(at + sizeof(uint32_t), data, size);
    instance->response_used += needed;
    return LV2_WORKER_SUCCESS;
}

/// The worker's `respond` on the live worker thread: queued for delivery after a `run`.
static LV2_Worker_Status respond_later(LV2_Worker_Respond_Handle handle, uint32_t size, const void *data) {
    DetentLV2Instance *instance = (DetentLV2Instance *)handle;
    if (!detent_ring_write(&instance->answers, data, size)) {
        __atomic_fetch_add(&instance->responses_refused, 1, __ATOMIC_RELAXED);
        return LV2_WORKER_ERR_NO_SPACE;
    }
    return LV2_WORKER_SUCCESS;
}

LV2_Worker_Status detent_lv2_schedule_work(LV2_Worker_Schedule_Handle handle, uint32_t size, const void *data) {
    DetentLV2Instance *instance = (DetentLV2Instance *)handle;
    if (!instance || !instance->worker || !instance->worker->work) return LV2_WORKER_ERR_UNKNOWN;
    instance->work_done++;
    if (instance->threaded) {
        if (!detent_ring_write(&instance->requests, data, size)) {
            __atomic_fetch_add(&instance->requests_refused, 1, __ATOMIC_RELAXED);
            return LV2_WORKER_ERR_NO_SPACE;
        }
        // After the write, so that the thread this wakes finds the request (the post
        // releases what the ring's release store published already). One post per queued
        // request: the semaphore counts, so a post made while the thread works is not lost.
        if (instance->wake) sem_post(instance->wake);
        return LV2_WORKER_SUCCESS;
    }
    return instance->worker->work(instance->handle, respond, instance, size, data);
}

int detent_lv2_worker_step(DetentLV2Instance *instance) {
    uint32_t size;
    const uint8_t *data = detent_ring_peek(&instance->requests, &size);
    if (!data) return 0;
    if (instance->worker && instance->worker->work) {
        instance->worker->work(instance->handle, respond_later, instance, size, data);
    }
    detent_ring_consume(&instance->requests, size);
    return 1;
}

/// Delivers the responses gathered during `run` (a few passes, since delivering one may
/// schedule more work), then tells the plug-in the cycle ended.
void detent_lv2_deliver(DetentLV2Instance *instance) {
    const LV2_Worker_Interface *worker = instance->worker;
    if (!worker) return;
    if (instance->threaded) {
        // What the worker thread answered so far; a response it gives meanwhile waits.
        uint32_t size;
        const uint8_t *data;
        for (int taken = 0; taken < 64 && (data = detent_ring_peek(&instance->answers, &size)); taken++) {
            if (worker->work_response) worker->work_response(instance->handle, size, data);
            detent_ring_consume(&instance->answers, size);
        }
        if (worker->end_run) worker->end_run(instance->handle);
        return;
    }
    for (int pass = 0; pass < 4 && instance->response_used > 0; pass++) {
        uint8_t *full = instance->responses;
        uint32_t used = instance->response_used;
        instance->responses = instance->delivering;
        instance->delivering = full;
        instance->response_used = 0;
        for (uint32_t offset = 0; offset < used;) {
            uint32_t size;
            memcpy(&size, full + offset, sizeof(uint32_t));
            if (worker->work_response) worker->work_response(instance->handle, size, full + offset + sizeof(uint32_t));
            instance->work_done++;
            offset += (uint32_t)sizeof(uint32_t) + padded(size);
        }
    }
    if (worker->end_run) worker->end_run(instance->handle);
}

void detent_lv2_fold(const float *const *sources, uint32_t source_count, float *const *destinations,
                     uint32_t destination_count, uint32_t frames) {
    if (source_count == 0) {
        // A plug-in with no audio output (MIDI only) leaves silence.
        for (uint32_t d = 0; d < destination_count; d++) memset(destinations[d], 0, (size_t)frames * sizeof(float));
        return;
    }
    if (source_count >= destination_count) {
        for (uint32_t d = 0; d < destination_count; d++) {
            float *out = destinations[d];
            uint32_t count = 0;
            for (uint32_t s = d; s < source_count; s += destination_count) {
                const float *in = sources[s];
                if (count == 0) {
                    for (uint32_t i = 0; i < frames; i++) out[i] = in[i];
                } else {
                    for (uint32_t i = 0; i < frames; i++) out[i] += in[i];
                }
                count++;
            }
            if (count > 1) {
                float scale = 1.0f / (float)count;
                for (uint32_t i = 0; i < frames; i++) out[i] *= scale;
            }
        }
    } else {
        for (uint32_t d = 0; d < destination_count; d++) {
            const float *in = sources[d % source_count];
            float *out = destinations[d];
            for (uint32_t i = 0; i < frames; i++) out[i] = in[i];
        }
    }
}

void detent_lv2_midi_begin(void *context) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    k->midi_count = 0;
    k->midi_bytes_used = 0;
    k->midi_next = 0;
    k->midi_cursor = 0;
}

_Bool detent_lv2_midi_add(void *context, uint32_t frame, const uint8_t *bytes, uint32_t size) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (!k->midi_inputs) return 0;
    if (size == 0 || k->midi_count >= k->midi_capacity || size > k->midi_bytes_capacity - k->midi_bytes_used) {
        k->midi_dropped++;
        return 0;
    }
    DetentMIDIEvent *event = &k->midi_events[k->midi_count++];
    event->frame = frame;
    event->size = size;
    event->offset = k->midi_bytes_used;
    memcpy(k->midi_bytes + k->midi_bytes_used, bytes, size);
    k->midi_bytes_used += size;
    return 1;
}

/// Appends the transport position at frame 0 to a sequence body whose first `used` bytes are
/// written; returns the bytes used after it (unchanged when it does not fit).
static uint32_t put_position(DetentLV2Kernel *k, uint8_t *body, uint32_t used) {
    uint32_t need = (uint32_t)sizeof(LV2_Atom_Event) + padded(k->position->size);
    if (used + need > k->atom_capacity) return used;
    LV2_Atom_Event *out = (LV2_Atom_Event *)(body + used);
    out->time.frames = 0;
    out->body = *k->position;
    memcpy(out + 1, k->position + 1, k->position->size);
    return used + need;
}

/// Before a `run`: which message parameters are due (their value changed since last sent).
static void mark_properties(DetentLV2Kernel *k, const float *controls) {
    for (uint32_t j = 0; j < k->property_count; j++) {
        float v = controls[k->property_first + j];
        float sent = k->property_sent[j];
        k->property_due[j] = !(v == sent);   // NaN (nothing sent) is never equal
        k->property_values[j] = v;
    }
}

/// After a `run`: the values sent are remembered.
static void settle_properties(DetentLV2Kernel *k) {
    for (uint32_t j = 0; j < k->property_count; j++) {
        if (k->property_due[j]) k->property_sent[j] = k->property_values[j];
    }
}

/// Appends a `patch:Set` at frame 0 for each due message parameter to a sequence body whose
/// first `used` bytes are written; returns the bytes used after them. One that does not fit
/// stays due for the next run.
static uint32_t put_properties(DetentLV2Kernel *k, uint8_t *body, uint32_t used) {
    for (uint32_t j = 0; j < k->property_count; j++) {
        if (!k->property_due[j]) continue;
        // The event (frame, atom header), the object's id and type, the property (key,
        // context, URID atom: 24 bytes padded) and the value (key, context, atom: 24).
        uint32_t need = 16 + 8 + 24 + 24;
        if (used + need > k->atom_capacity) {
            k->property_due[j] = 0;
            continue;
        }
        uint8_t *at = body + used;
        memset(at, 0, need);
        int64_t frame = 0;
        uint32_t words[] = {8 + 24 + 24, k->urid_object, 0, k->urid_patch_set,
                            k->urid_patch_property, 0, 4, k->urid_urid, k->property_keys[j], 0,
                            k->urid_patch_value, 0, 0, k->property_types[j]};
        uint32_t type = k->property_types[j];
        float v = k->property_values[j];
        uint8_t value[8] = {0};
        uint32_t size = 4;
        if (type == k->urid_float) {
            memcpy(value, &v, 4);
        } else if (type == k->urid_double) {
            double d = v;
            memcpy(value, &d, 8);
            size = 8;
        } else if (type == k->urid_long) {
            int64_t l = (int64_t)(v < 0 ? v - 0.5f : v + 0.5f);
            memcpy(value, &l, 8);
            size = 8;
        } else if (type == k->urid_bool) {
            int32_t b = v >= 0.5f;
            memcpy(value, &b, 4);
        } else {
            int32_t i = (int32_t)(v < 0 ? v - 0.5f : v + 0.5f);
            memcpy(value, &i, 4);
        }
        words[12] = size;
        memcpy(at, &frame, 8);
        memcpy(at + 8, words, sizeof words);
        memcpy(at + 8 + sizeof words, value, size);
        used += need;
    }
    return used;
}

/// Appends the `patch:Get` asking for every property at frame 0, when one is due.
static uint32_t put_get(DetentLV2Kernel *k, uint8_t *body, uint32_t used) {
    if (!k->readable_get_pending) return used;
    uint32_t need = 16 + 8;  // the event (frame, atom header) and the object's id and type
    if (used + need > k->atom_capacity) return used;
    uint8_t *at = body + used;
    int64_t frame = 0;
    uint32_t words[] = {8, k->urid_object, 0, k->urid_patch_get};
    memcpy(at, &frame, 8);
    memcpy(at + 8, words, sizeof words);
    return used + need;
}

/// A numeric atom's value as a float; 0 when it is of no numeric type.
static int atom_number(DetentLV2Kernel *k, const LV2_Atom *atom, float *value) {
    const void *body = atom + 1;
    if (atom->type == k->urid_float && atom->size >= 4) { *value = *(const float *)body; return 1; }
    if (atom->type == k->urid_double && atom->size >= 8) { *value = (float)*(const double *)body; return 1; }
    if (atom->type == k->urid_int && atom->size >= 4) { *value = (float)*(const int32_t *)body; return 1; }
    if (atom->type == k->urid_long && atom->size >= 8) { *value = (float)*(const int64_t *)body; return 1; }
    if (atom->type == k->urid_bool && atom->size >= 4) { *value = *(const int32_t *)body ? 1.0f : 0.0f; return 1; }
    return 0;
}

/// Records `value` for readable property `key`, when it is one.
static void take_readable(DetentLV2Kernel *k, uint32_t key, const LV2_Atom *value) {
    for (uint32_t j = 0; j < k->readable_count; j++) {
        float number;
        if (k->readable_keys[j] == key && atom_number(k, value, &number)) k->readable_values[j] = number;
    }
}

/// Walks the properties of an object body of `size` bytes, calling `visit` with each key and
/// value that lies wholly inside it.
static void each_property(const uint8_t *properties, uint32_t size, DetentLV2Kernel *k,
                          void (*visit)(DetentLV2Kernel *, uint32_t, const LV2_Atom *, void *), void *context) {
    uint32_t offset = 0;
    while (offset + sizeof(LV2_Atom_Property_Body) <= size) {
        const LV2_Atom_Property_Body *p = (const LV2_Atom_Property_Body *)(properties + offset);
        if (p->value.size > size - offset - (uint32_t)sizeof(LV2_Atom_Property_Body)) return;
        visit(k, p->key, &p->value, context);
        offset += (uint32_t)sizeof(LV2_Atom_Property_Body) + padded(p->value.size);
    }
}

/// A `patch:Set`'s property and value, gathered from its object's properties.
typedef struct { uint32_t property; const LV2_Atom *value; } SetParts;

static void visit_set(DetentLV2Kernel *k, uint32_t key, const LV2_Atom *value, void *context) {
    SetParts *parts = context;
    if (key == k->urid_patch_property && value->type == k->urid_urid && value->size >= 4) {
        parts->property = *(const uint32_t *)(value + 1);
    } else if (key == k->urid_patch_value) {
        parts->value = value;
    }
}

static void visit_body(DetentLV2Kernel *k, uint32_t key, const LV2_Atom *value, void *context) {
    (void)context;
    take_readable(k, key, value);
}

static void visit_put(DetentLV2Kernel *k, uint32_t key, const LV2_Atom *value, void *context) {
    (void)context;
    if (key != k->urid_patch_body || value->type != k->urid_object || value->size < sizeof(LV2_Atom_Object_Body)) return;
    const uint8_t *body = (const uint8_t *)(value + 1);
    each_property(body + sizeof(LV2_Atom_Object_Body), value->size - (uint32_t)sizeof(LV2_Atom_Object_Body), k, visit_body, NULL);
}

/// Calls `visit` with each event of `sequence` (an output the plug-in wrote) that lies wholly
/// inside it, in order: the one walk over a plug-in's atom output, bounds checked. A sequence of
/// another type, or claiming more than its capacity, is passed over.
static void each_event(DetentLV2Kernel *k, const LV2_Atom_Sequence *sequence,
                       void (*visit)(DetentLV2Kernel *, const LV2_Atom_Event *, void *), void *context) {
    if (!sequence || sequence->atom.type != k->atom_sequence_type || sequence->atom.size > k->atom_capacity) return;
    const uint8_t *body = (const uint8_t *)&sequence->body;
    uint32_t size = sequence->atom.size;
    uint32_t offset = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
    while (offset + sizeof(LV2_Atom_Event) <= size) {
        const LV2_Atom_Event *event = (const LV2_Atom_Event *)(body + offset);
        uint32_t bytes = event->body.size;
        if (bytes > size - offset - (uint32_t)sizeof(LV2_Atom_Event)) return;
        visit(k, event, context);
        offset += (uint32_t)sizeof(LV2_Atom_Event) + padded(bytes);
    }
}

/// A `patch:Set` or `patch:Put` of readable properties: their values are taken.
static void visit_readable(DetentLV2Kernel *k, const LV2_Atom_Event *event, void *context) {
    (void)context;
    uint32_t bytes = event->body.size;
    if (event->body.type != k->urid_object || bytes < sizeof(LV2_Atom_Object_Body)) return;
    const LV2_Atom_Object_Body *object = (const LV2_Atom_Object_Body *)(event + 1);
    const uint8_t *properties = (const uint8_t *)(object + 1);
    uint32_t length = bytes - (uint32_t)sizeof(LV2_Atom_Object_Body);
    if (object->otype == k->urid_patch_set) {
        SetParts parts = {0, NULL};
        each_property(properties, length, k, visit_set, &parts);
        if (parts.property && parts.value) take_readable(k, parts.property, parts.value);
    } else if (object->otype == k->urid_patch_put) {
        each_property(properties, length, k, visit_put, NULL);
    }
}

/// After a `run` of the first instance: the readable properties its atom outputs report.
static void collect_readable(DetentLV2Kernel *k) {
    if (k->readable_count == 0) return;
    for (uint32_t a = 0; a < k->atom_output_count; a++) each_event(k, k->atom_outputs[a], visit_readable, NULL);
}

/// Before a `run`: each instance's own patch input holds the due `patch:Set`s, else nothing.
static void fill_patch_inputs(DetentLV2Kernel *k, uint32_t instances) {
    if (!k->patch_inputs || k->patch_shares != 0) return;
    for (uint32_t i = 0; i < instances; i++) {
        LV2_Atom_Sequence *sequence = k->patch_inputs[i];
        sequence->atom.type = k->atom_sequence_type;
        sequence->body.unit = 0;
        sequence->body.pad = 0;
        uint32_t used = put_get(k, (uint8_t *)&sequence->body, (uint32_t)sizeof(LV2_Atom_Sequence_Body));
        sequence->atom.size = put_properties(k, (uint8_t *)&sequence->body, used);
    }
}

/// Before a `run`: each instance's separate time input holds the position when one is due,
/// else nothing.
static void fill_positions(DetentLV2Kernel *k, uint32_t instances) {
    if (!k->position_inputs || k->position_shares_midi) return;
    for (uint32_t i = 0; i < instances; i++) {
        LV2_Atom_Sequence *sequence = k->position_inputs[i];
        sequence->atom.type = k->atom_sequence_type;
        sequence->body.unit = 0;
        sequence->body.pad = 0;
        uint32_t used = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
        if (k->position_pending) used = put_position(k, (uint8_t *)&sequence->body, used);
        if (k->patch_shares == 2) used = put_properties(k, (uint8_t *)&sequence->body, put_get(k, (uint8_t *)&sequence->body, used));
        sequence->atom.size = used;
    }
}

/// Writes the cycle's messages that fall in the next `frames` frames into `sequence`, timed
/// from the start of this `run`; returns how many were taken.
static uint32_t fill_midi(DetentLV2Kernel *k, LV2_Atom_Sequence *sequence, uint32_t frames) {
    sequence->atom.type = k->atom_sequence_type;
    sequence->body.unit = 0;
    sequence->body.pad = 0;
    uint32_t used = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
    uint32_t taken = 0;
    uint8_t *end = (uint8_t *)&sequence->body;
    if (k->position_pending && k->position_shares_midi) used = put_position(k, end, used);
    if (k->patch_shares == 1) used = put_properties(k, end, put_get(k, end, used));
    for (uint32_t e = k->midi_next; e < k->midi_count; e++) {
        const DetentMIDIEvent *event = &k->midi_events[e];
        if (event->frame >= k->midi_cursor + frames) break;
        taken++;
        uint32_t need = (uint32_t)sizeof(LV2_Atom_Event) + padded(event->size);
        if (used + need > k->atom_capacity) {
            k->midi_dropped++;
            continue;
        }
        LV2_Atom_Event *out = (LV2_Atom_Event *)(end + used);
        out->time.frames = event->frame > k->midi_cursor ? event->frame - k->midi_cursor : 0;
        out->body.size = event->size;
        out->body.type = k->midi_event_type;
        memcpy(out + 1, k->midi_bytes + event->offset, event->size);
        used += need;
    }
    sequence->atom.size = used;
    return taken;
}

/// Every instance's MIDI input gets this stretch's messages; returns how many.
static uint32_t fill_midi_inputs(DetentLV2Kernel *k, uint32_t instances, uint32_t frames) {
    if (!k->midi_inputs) return 0;
    uint32_t taken = 0;
    for (uint32_t i = 0; i < instances; i++) taken = fill_midi(k, k->midi_inputs[i], frames);
    return taken;
}

static void advance_midi(DetentLV2Kernel *k, uint32_t taken, uint32_t frames) {
    k->midi_next += taken;
    k->midi_cursor += frames;
}

/// One message of the plug-in's MIDI output, copied out at its frame on the kernel's timeline
/// (`context`: the run's frames); one that does not fit is counted.
static void visit_midi_output(DetentLV2Kernel *k, const LV2_Atom_Event *event, void *context) {
    uint32_t frames = *(const uint32_t *)context;
    uint32_t bytes = event->body.size;
    if (event->body.type != k->midi_event_type || bytes == 0) return;
    if (k->midi_out_count >= k->midi_out_capacity || bytes > k->midi_out_bytes_capacity - k->midi_out_bytes_used) {
        k->midi_out_dropped++;
        return;
    }
    int64_t at = event->time.frames;
    if (at < 0) at = 0;
    if (frames > 0 && at >= frames) at = frames - 1;
    DetentMIDIOutEvent *out = &k->midi_out_events[k->midi_out_count++];
    out->frame = k->frames_run + at;
    out->size = bytes;
    out->offset = k->midi_out_bytes_used;
    memcpy(k->midi_out_bytes + k->midi_out_bytes_used, event + 1, bytes);
    k->midi_out_bytes_used += bytes;
}

/// After a `run` of `frames` frames: the MIDI messages the plug-in wrote to its MIDI output,
/// copied out at their frames on the kernel's timeline; then the timeline moves on.
static void collect_midi_output(DetentLV2Kernel *k, uint32_t frames) {
    each_event(k, k->midi_output, visit_midi_output, &frames);
    k->frames_run += frames;
}

/// Before a `run` of a plug-in that runs once: the side signal folded into its side inputs.
static void fold_sides(DetentLV2Kernel *k, uint32_t frames) {
    enum { most = 128 };
    if (k->side_count == 0 || !k->side_in || !k->side_buffers || k->side_channels == 0) return;
    float *sides[most];
    uint32_t ns = k->side_count < most ? k->side_count : most;
    for (uint32_t j = 0; j < ns; j++) sides[j] = k->side_buffers + (size_t)j * k->max_frames;
    detent_lv2_fold(k->side_in, k->side_channels, sides, ns, frames);
}

/// The folded connection: engine channels → the plug-in's inputs, run, its outputs → channels.
static void run_mapped(DetentLV2Kernel *k, const float *controls, const float *const *inputs,
                       float *const *outputs, uint32_t channels, uint32_t frames) {
    enum { most = 128 };
    float *ins[most], *outs[most];
    uint32_t ni = k->mapped_inputs < most ? k->mapped_inputs : most;
    uint32_t no = k->mapped_outputs < most ? k->mapped_outputs : most;
    for (uint32_t j = 0; j < ni; j++) ins[j] = k->mapped_in + (size_t)j * k->max_frames;
    for (uint32_t j = 0; j < no; j++) outs[j] = k->mapped_out + (size_t)j * k->max_frames;
    detent_lv2_fold(inputs, channels, ins, ni, frames);
    fold_sides(k, frames);
    DetentLV2Instance *instance = &k->instances[0];
    float *values = k->port_values[0];
    for (uint32_t p = 0; p < k->parameter_count; p++) {
        float v = controls[p];
        values[k->parameter_ports[p]] = v < k->parameter_low[p] ? k->parameter_low[p] : v > k->parameter_high[p] ? k->parameter_high[p] : v;
    }
    for (uint32_t a = 0; a < k->atom_output_count; a++) {
        LV2_Atom_Sequence *sequence = k->atom_outputs[a];
        sequence->atom.size = k->atom_capacity;
        sequence->atom.type = k->atom_chunk;
    }
    mark_properties(k, controls);
    uint32_t taken = fill_midi_inputs(k, 1, frames);
    fill_positions(k, 1);
    fill_patch_inputs(k, 1);
    k->descriptor->run(instance->handle, frames);
    settle_properties(k);
    collect_midi_output(k, frames);
    collect_readable(k);
    detent_lv2_deliver(instance);
    advance_midi(k, taken, frames);
    if (frames > 0) k->position_pending = 0;
    if (frames > 0) k->readable_get_pending = 0;
    if (no == 0) {
        // An analyser (audio in, none out), and a plug-in with no audio at all (MIDI or
        // messages only), let the signal through unchanged.
        for (uint32_t c = 0; c < channels; c++) memcpy(outputs[c], inputs[c], (size_t)frames * sizeof(float));
        return;
    }
    detent_lv2_fold((const float *const *)outs, no, outputs, channels, frames);
}

void detent_lv2_side(void *context, const float *const *inputs, intptr_t channels) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (!k || k->side_count == 0) return;
    k->side_in = inputs;
    k->side_channels = (uint32_t)channels;
}

void detent_lv2_run(void *context, const float *controls, const float *const *inputs, float *const *outputs,
                    intptr_t channels, intptr_t frames) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (k->mapped) {
        run_mapped(k, controls, inputs, outputs, (uint32_t)channels, (uint32_t)frames);
        return;
    }
    const LV2_Descriptor *d = k->descriptor;
    fold_sides(k, (uint32_t)frames);
    mark_properties(k, controls);
    uint32_t taken = fill_midi_inputs(k, k->instance_count, (uint32_t)frames);
    fill_positions(k, k->instance_count);
    fill_patch_inputs(k, k->instance_count);
    for (uint32_t i = 0; i < k->instance_count; i++) {
        DetentLV2Instance *instance = &k->instances[i];
        float *values = k->port_values[i];
        for (uint32_t p = 0; p < k->parameter_count; p++) {
            float v = controls[p];
            values[k->parameter_ports[p]] = v < k->parameter_low[p] ? k->parameter_low[p] : v > k->parameter_high[p] ? k->parameter_high[p] : v;
        }
        for (uint32_t j = 0; j < k->audio_per_instance; j++) {
            uint32_t c = i * k->audio_per_instance + j;
            d->connect_port(instance->handle, k->audio_inputs[j], (void *)inputs[c]);
            d->connect_port(instance->handle, k->audio_outputs[j], outputs[c]);
        }
        if (k->side_in && k->side_channels > 0 && !k->side_buffers) {
            for (uint32_t j = 0; j < k->side_count; j++) {
                d->connect_port(instance->handle, k->side_ports[j], (void *)k->side_in[i % k->side_channels]);
            }
        }
        for (uint32_t a = 0; a < k->atom_output_count; a++) {
            LV2_Atom_Sequence *sequence = k->atom_outputs[i * k->atom_output_count + a];
            sequence->atom.size = k->atom_capacity;
            sequence->atom.type = k->atom_chunk;
        }
        d->run(instance->handle, (uint32_t)frames);
        if (i == 0) {
            collect_midi_output(k, (uint32_t)frames);
            collect_readable(k);
        }
        detent_lv2_deliver(instance);
    }
    settle_properties(k);
    advance_midi(k, taken, (uint32_t)frames);
    // (A run of no frames, which only asks for the latency, leaves the position due.)
    if (frames > 0) k->position_pending = 0;
    if (frames > 0) k->readable_get_pending = 0;
}

void detent_lv2_midi_out_drain(void *context, uint32_t cycle_frames, DetentMIDISink sink, void *target) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (!k || !k->midi_out_events || !k->midi_out_bytes) return;
    // The cycle began `cycle_frames` before where the kernel's timeline is now.
    int64_t start = (int64_t)k->frames_run - (int64_t)cycle_frames;
    for (uint32_t e = 0; e < k->midi_out_count; e++) {
        const DetentMIDIOutEvent *event = &k->midi_out_events[e];
        int64_t at = event->frame - start;
        if (at < 0) at = 0;
        if (cycle_frames > 0 && at >= cycle_frames) at = cycle_frames - 1;
        sink(target, (uint32_t)at, k->midi_out_bytes + event->offset, event->size);
    }
    k->midi_out_count = 0;
    k->midi_out_bytes_used = 0;
}

void detent_lv2_transport(void *context, int64_t frame, float speed, int64_t bar, float barBeat,
                          double beat, int32_t beatUnit, float beatsPerBar, float beatsPerMinute) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (!k || !k->position) return;
    // The object `PluginInstances.position(…)` builds: an atom head, the object's id and type,
    // then eight properties of 24 bytes (key, context, a value atom's head, the value padded
    // to 8), in this order; each value is at 16 bytes into its property.
    uint8_t *values = (uint8_t *)(k->position + 1) + 8 + 16;
    memcpy(values + 0 * 24, &frame, sizeof frame);
    memcpy(values + 1 * 24, &speed, sizeof speed);
    memcpy(values + 2 * 24, &bar, sizeof bar);
    memcpy(values + 3 * 24, &barBeat, sizeof barBeat);
    memcpy(values + 4 * 24, &beat, sizeof beat);
    memcpy(values + 5 * 24, &beatUnit, sizeof beatUnit);
    memcpy(values + 6 * 24, &beatsPerBar, sizeof beatsPerBar);
    memcpy(values + 7 * 24, &beatsPerMinute, sizeof beatsPerMinute);
    k->position_pending = 1;
    k->position_known = 1;
}

void detent_binary_transport(void *context, int64_t frame, float speed, int64_t bar, float barBeat, double beat,
                             int32_t beatUnit, float beatsPerBar, float beatsPerMinute) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    if (!k || !k->transport_receiver) return;
    const DetentTransportReceiver *receiver = (const DetentTransportReceiver *)k->transport_receiver;
    DetentTransport told = {.known = 1, .rolling = speed != 0, .frame = frame, .bar = bar, .beat = beat,
                            .bar_beat = barBeat, .beats_per_bar = beatsPerBar, .beat_unit = beatUnit,
                            .beats_per_minute = beatsPerMinute};
    for (uint32_t i = 0; i < k->instance_count; i++) receiver->tell(k->instances[i].handle, &told);
}

static pthread_mutex_t lifecycle = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_once_t planners_made_safe = PTHREAD_ONCE_INIT;

/// FFTW's planner keeps global state that two threads planning at once corrupt ("double free
/// or corruption", a floating-point exception): plug-ins plan not only as they are made but in
/// their own threads (a convolver loading its response in its worker) and in `run`, where no
/// lock of ours reaches. FFTW makes its planner take a lock of its own when asked, once per
/// process, in its threads library: asked here, before the first plug-in is made, for each
/// precision installed. The libraries stay loaded, so the plug-ins' FFTW is that very one. They
/// are loaded local: a plug-in that uses FFTW without linking it (two of Debian's swh-lv2
/// libraries) must not start loading because Detent happened to load FFTW first.
static void make_fftw_planners_thread_safe(void) {
    static const char *const libraries[][2] = {
        {"libfftw3f_threads.so.3", "fftwf_make_planner_thread_safe"},
        {"libfftw3_threads.so.3", "fftw_make_planner_thread_safe"},
        {"libfftw3l_threads.so.3", "fftwl_make_planner_thread_safe"},
    };
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        void *library = dlopen(libraries[i][0], RTLD_NOW | RTLD_LOCAL);
        if (!library) continue;
        void (*make_safe)(void) = (void (*)(void))dlsym(library, libraries[i][1]);
        if (make_safe) make_safe();
    }
}

void detent_plugin_lifecycle_lock(void) {
    pthread_once(&planners_made_safe, make_fftw_planners_thread_safe);
    pthread_mutex_lock(&lifecycle);
}
void detent_plugin_lifecycle_unlock(void) { pthread_mutex_unlock(&lifecycle); }

void detent_lv2_reset(void *context) {
    DetentLV2Kernel *k = (DetentLV2Kernel *)context;
    const LV2_Descriptor *d = k->descriptor;
    // Some plug-ins switch the thread's floating-point mode (flush-to-zero) as they activate;
    // the caller's mode is given back.
    unsigned int mode = detent_denormals_off();
    detent_plugin_lifecycle_lock();
    for (uint32_t i = 0; i < k->instance_count; i++) {
        if (d->deactivate) d->deactivate(k->instances[i].handle);
        if (d->activate) d->activate(k->instances[i].handle);
    }
    detent_plugin_lifecycle_unlock();
    detent_denormals_restore(mode);
    // The transport starts again from frame 0, and so does the MIDI output's timeline.
    k->position_pending = k->position != NULL && k->position_known;
    k->frames_run = 0;
    // Every message parameter is sent again at the first run.
    for (uint32_t j = 0; j < k->property_count; j++) k->property_sent[j] = __builtin_nanf("");
    // And the output parameters are asked for again.
    k->readable_get_pending = k->readable_count > 0;
    k->midi_out_count = 0;
    k->midi_out_bytes_used = 0;
}

void detent_lv2_log_prepare(DetentLV2Log *log, uint32_t slots, char *messages, uint32_t *types,
                            uint32_t *sequences, uint32_t trace) {
    memset(log, 0, sizeof *log);
    log->messages = messages;
    log->types = types;
    log->sequences = sequences;
    log->slots = slots;
    log->trace = trace;
    for (uint32_t i = 0; i < slots; i++) sequences[i] = i;
}

int detent_lv2_log_vprintf(LV2_Log_Handle handle, LV2_URID type, const char *format, va_list args) {
    DetentLV2Log *log = (DetentLV2Log *)handle;
    if (!log || type == log->trace || log->slots == 0) return 0;
    uint32_t head = __atomic_load_n(&log->head, __ATOMIC_RELAXED);
    uint32_t slot;
    for (;;) {
        slot = head % log->slots;
        uint32_t sequence = __atomic_load_n(&log->sequences[slot], __ATOMIC_ACQUIRE);
        int32_t ahead = (int32_t)(sequence - head);
        if (ahead == 0) {
            // Free for this position: claim it (a failed exchange reloads the head).
            if (__atomic_compare_exchange_n(&log->head, &head, head + 1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
        } else if (ahead < 0) {
            // The slot still holds a message a lap behind, not yet taken: the ring is full.
            __atomic_fetch_add(&log->dropped, 1, __ATOMIC_RELAXED);
            return 0;
        } else {
            // Another writer claimed this position first.
            head = __atomic_load_n(&log->head, __ATOMIC_RELAXED);
        }
    }
    int written = vsnprintf(log->messages + (size_t)slot * DETENT_LV2_LOG_MESSAGE, DETENT_LV2_LOG_MESSAGE, format, args);
    log->types[slot] = type;
    __atomic_store_n(&log->sequences[slot], head + 1, __ATOMIC_RELEASE);
    return written;
}

int detent_lv2_log_printf(LV2_Log_Handle handle, LV2_URID type, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int written = detent_lv2_log_vprintf(handle, type, format, args);
    va_end(args);
    return written;
}

void detent_lv2_log_feature(DetentLV2Log *log, LV2_Log_Log *feature) {
    feature->handle = log;
    feature->printf = detent_lv2_log_printf;
    feature->vprintf = detent_lv2_log_vprintf;
}

int detent_lv2_log_take(DetentLV2Log *log, char *text, uint32_t *type) {
    if (log->slots == 0) return 0;
    uint32_t tail = log->tail;
    uint32_t slot = tail % log->slots;
    // Published for this position, or still empty (or being written: it waits for the next call).
    if (__atomic_load_n(&log->sequences[slot], __ATOMIC_ACQUIRE) != tail + 1) return 0;
    memcpy(text, log->messages + (size_t)slot * DETENT_LV2_LOG_MESSAGE, DETENT_LV2_LOG_MESSAGE);
    text[DETENT_LV2_LOG_MESSAGE - 1] = 0;
    *type = log->types[slot];
    log->tail = tail + 1;
    __atomic_store_n(&log->sequences[slot], tail + log->slots, __ATOMIC_RELEASE);
    return 1;
}
