// The objects that carry a run's changes between the host and the processor — parameter
// changes with their queues, and events — over arrays allocated once, so a run fills and
// reads them without allocating; and the component handler through which the controller
// reports the changes the plug-in makes itself.
//
// Each object is part of its instance and lives exactly as long: reference counting is moot,
// and `ref`/`unref` only answer.

#include "Vst3Instance.h"
#include "CRealtime.h"

#include <lv2/atom/util.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t owned_ref(void *self) {
    (void)self;
    return 1;
}

static uint32_t owned_unref(void *self) {
    (void)self;
    return 1;
}

// MARK: parameter queues

static v3_result queue_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_param_value_queue_iid)) {
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static v3_param_id queue_id(void *self) { return ((Vst3Queue *)self)->identifier; }

static int32_t queue_count(void *self) { return ((Vst3Queue *)self)->count; }

static v3_result queue_point(void *self, int32_t index, int32_t *offset, double *value) {
    Vst3Queue *queue = self;
    if (index < 0 || index >= queue->count) return V3_INVALID_ARG;
    if (offset) *offset = queue->offsets[index];
    if (value) *value = queue->values[index];
    return V3_OK;
}

/// Adds a point in order of offset; a point at an offset already held replaces its value.
static v3_result queue_add(void *self, int32_t offset, double value, int32_t *index) {
    Vst3Queue *queue = self;
    int32_t at = queue->count;
    while (at > 0 && queue->offsets[at - 1] > offset) at--;
    if (at > 0 && queue->offsets[at - 1] == offset) {
        queue->values[at - 1] = value;
        if (index) *index = at - 1;
        return V3_OK;
    }
    if (queue->count >= VST3_QUEUE_POINTS) return V3_NOMEM;
    memmove(queue->offsets + at + 1, queue->offsets + at, (size_t)(queue->count - at) * sizeof(int32_t));
    memmove(queue->values + at + 1, queue->values + at, (size_t)(queue->count - at) * sizeof(double));
    queue->offsets[at] = offset;
    queue->values[at] = value;
    queue->count++;
    if (index) *index = at;
    return V3_OK;
}

static const Vst3QueueTable queue_table = {
    .unknown = {queue_query, owned_ref, owned_unref},
    .queue = {queue_id, queue_count, queue_point, queue_add},
};

// MARK: parameter changes

static v3_result changes_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_param_changes_iid)) {
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static int32_t changes_count(void *self) { return ((Vst3Changes *)self)->count; }

static struct v3_param_value_queue **changes_data(void *self, int32_t index) {
    Vst3Changes *changes = self;
    if (index < 0 || index >= changes->count) return NULL;
    return (struct v3_param_value_queue **)&changes->queues[index];
}

/// The queue of `identifier`, made (empty) when there is none yet; NULL when all are taken.
static Vst3Queue *changes_queue(Vst3Changes *changes, v3_param_id identifier, int32_t *index) {
    for (int32_t i = 0; i < changes->count; i++) {
        if (changes->queues[i].identifier == identifier) {
            if (index) *index = i;
            return &changes->queues[i];
        }
    }
    if (changes->count >= changes->capacity) return NULL;
    Vst3Queue *queue = &changes->queues[changes->count];
    queue->identifier = identifier;
    queue->count = 0;
    if (index) *index = changes->count;
    changes->count++;
    return queue;
}

static struct v3_param_value_queue **changes_add_data(void *self, v3_param_id *identifier, int32_t *index) {
    if (!identifier) return NULL;
    return (struct v3_param_value_queue **)changes_queue(self, *identifier, index);
}

static const Vst3ChangesTable changes_table = {
    .unknown = {changes_query, owned_ref, owned_unref},
    .changes = {changes_count, changes_data, changes_add_data},
};

bool vst3_changes_init(Vst3Changes *changes, int32_t capacity) {
    changes->table = &changes_table;
    changes->count = 0;
    changes->capacity = capacity;
    changes->queues = calloc((size_t)(capacity > 0 ? capacity : 1), sizeof(Vst3Queue));
    if (!changes->queues) return false;
    for (int32_t i = 0; i < capacity; i++) changes->queues[i].table = &queue_table;
    return true;
}

void vst3_changes_free(Vst3Changes *changes) {
    free(changes->queues);
    changes->queues = NULL;
    changes->capacity = 0;
    changes->count = 0;
}

bool vst3_changes_add(Vst3Changes *changes, v3_param_id identifier, int32_t offset, double value) {
    Vst3Queue *queue = changes_queue(changes, identifier, NULL);
    return queue && queue_add(queue, offset, value, NULL) == V3_OK;
}

void vst3_changes_clear(Vst3Changes *changes) { changes->count = 0; }

// MARK: events

static v3_result events_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_event_list_iid)) {
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static uint32_t events_count(void *self) { return (uint32_t)((Vst3Events *)self)->count; }

static v3_result events_get(void *self, int32_t index, struct v3_event *event) {
    Vst3Events *events = self;
    if (index < 0 || index >= events->count || !event) return V3_INVALID_ARG;
    *event = events->events[index];
    return V3_OK;
}

static v3_result events_add(void *self, struct v3_event *event) {
    Vst3Events *events = self;
    if (!event) return V3_INVALID_ARG;
    if (events->count >= events->capacity) return V3_NOMEM;
    events->events[events->count++] = *event;
    return V3_OK;
}

static const Vst3EventsTable events_table = {
    .unknown = {events_query, owned_ref, owned_unref},
    .events = {events_count, events_get, events_add},
};

bool vst3_events_init(Vst3Events *events, int32_t capacity) {
    events->table = &events_table;
    events->count = 0;
    events->capacity = capacity;
    events->events = calloc((size_t)(capacity > 0 ? capacity : 1), sizeof(struct v3_event));
    return events->events != NULL;
}

void vst3_events_free(Vst3Events *events) {
    free(events->events);
    events->events = NULL;
    events->capacity = 0;
    events->count = 0;
}

/// The VST3 event of one MIDI message: notes on and off (a note-on of velocity 0 is a
/// note-off, as MIDI defines it) and polyphonic pressure. VST3 carries controllers, pitch
/// bend and channel pressure as parameters the plug-in maps (`IMidiMapping`), which this host
/// leaves out; 0 for those and every other message.
static int convert(const uint8_t *bytes, uint32_t size, int32_t frame, struct v3_event *event) {
    if (size < 3) return 0;
    uint8_t status = bytes[0] & 0xF0;
    int16_t channel = bytes[0] & 0x0F, pitch = bytes[1] & 0x7F;
    float velocity = (float)(bytes[2] & 0x7F) / 127.0f;
    memset(event, 0, sizeof *event);
    event->sample_offset = frame;
    event->flags = V3_EVENT_IS_LIVE;
    if (status == 0x90 && bytes[2] > 0) {
        event->type = V3_EVENT_NOTE_ON;
        event->note_on.channel = channel;
        event->note_on.pitch = pitch;
        event->note_on.velocity = velocity;
        event->note_on.note_id = -1;
        return 1;
    }
    if (status == 0x80 || status == 0x90) {
        event->type = V3_EVENT_NOTE_OFF;
        event->note_off.channel = channel;
        event->note_off.pitch = pitch;
        event->note_off.velocity = status == 0x80 ? velocity : 0.0f;
        event->note_off.note_id = -1;
        return 1;
    }
    if (status == 0xA0) {
        event->type = V3_EVENT_POLY_PRESSURE;
        event->poly_pressure.channel = channel;
        event->poly_pressure.pitch = pitch;
        event->poly_pressure.pressure = velocity;
        event->poly_pressure.note_id = -1;
        return 1;
    }
    return 0;
}

void vst3_events_from_midi(Vst3Events *events, const LV2_Atom_Sequence *midi) {
    events->count = 0;
    if (!midi) return;
    LV2_ATOM_SEQUENCE_FOREACH(midi, ev) {
        if (events->count >= events->capacity) break;
        const uint8_t *bytes = (const uint8_t *)(ev + 1);
        int32_t frame = ev->time.frames > 0 ? (int32_t)ev->time.frames : 0;
        events->count += convert(bytes, ev->body.size, frame, &events->events[events->count]);
    }
}

// MARK: the component handler

static v3_result handler_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_component_handler_iid)) {
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static v3_result handler_begin(void *self, v3_param_id identifier) {
    (void)self;
    (void)identifier;
    return V3_OK;
}

void vst3_own_change(DetentVst3Instance *instance, int32_t k, double normalized) {
    if (!instance->edits || k < 0 || k >= instance->parameter_count || normalized != normalized) return;
    uint64_t bits;
    memcpy(&bits, &normalized, sizeof bits);
    atomic_store_explicit(&instance->edits[k], bits, memory_order_release);
    detent_own_change_noted();
}

/// Records the value in the parameter's slot (a plain store, lock-free).
static v3_result handler_perform(void *self, v3_param_id identifier, double normalized) {
    DetentVst3Instance *instance = ((Vst3Handler *)self)->instance;
    for (int32_t k = 0; k < instance->parameter_count; k++) {
        if (instance->parameter_ids[k] != identifier) continue;
        vst3_own_change(instance, k, normalized);
        break;
    }
    return V3_OK;
}

static v3_result handler_end(void *self, v3_param_id identifier) {
    (void)self;
    (void)identifier;
    return V3_OK;
}

/// Remembers what the plug-in asks to be restarted for (a latency or parameter change);
/// nothing restarts it here.
static v3_result handler_restart(void *self, int32_t flags) {
    atomic_fetch_or_explicit(&((Vst3Handler *)self)->instance->restart_flags, flags, memory_order_relaxed);
    return V3_OK;
}

static const Vst3HandlerTable handler_table = {
    .unknown = {handler_query, owned_ref, owned_unref},
    .handler = {handler_begin, handler_perform, handler_end, handler_restart},
};

void vst3_handler_init(Vst3Handler *handler, DetentVst3Instance *instance) {
    handler->table = &handler_table;
    handler->instance = instance;
}

uint32_t detent_vst3_take_own_changes(DetentVst3Instance *instance, uint32_t *indices, double *values, uint32_t capacity) {
    uint32_t taken = 0;
    double none = NAN;
    uint64_t none_bits;
    memcpy(&none_bits, &none, sizeof none_bits);
    for (int32_t k = 0; k < instance->parameter_count && instance->edits && taken < capacity; k++) {
        uint64_t bits = atomic_exchange_explicit(&instance->edits[k], none_bits, memory_order_acq_rel);
        double normalized;
        memcpy(&normalized, &bits, sizeof normalized);
        if (normalized != normalized) continue;
        double low = instance->minimums[k], high = instance->maximums[k];
        indices[taken] = (uint32_t)k;
        values[taken++] = low + (normalized < 0 ? 0 : normalized > 1 ? 1 : normalized) * (high - low);
    }
    return taken;
}
