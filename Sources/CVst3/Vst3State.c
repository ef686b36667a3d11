// A VST3 plug-in's state as this host keeps it: the component's state (everything the
// processor needs to sound the same, which every VST3 component has) and the controller's
// own (what only the editor side keeps), both as the plug-in writes them, in one block:
//
//   offset  size  what
//        0     4  the magic "DV3S"
//        4     4  the layout's version, 1 (little-endian)
//        8     8  C, the component state's length in bytes (little-endian)
//       16     8  K, the controller state's length in bytes (little-endian)
//       24     C  the component's state (`IComponent::getState`)
//     24+C     K  the controller's state (`IEditController::getState`; none when it keeps none)
//
// and nothing after. Restoring follows the order VST3 hosts use: the component's state, then
// the controller told of it (`setComponentState`), then the controller's own state.

#include "Vst3Instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const uint8_t magic[4] = {'D', 'V', '3', 'S'};
enum { LAYOUT_VERSION = 1, HEADER_SIZE = 24 };

#define COMPONENT(i) VST3_TABLE((i)->component, Vst3ComponentTable)
#define CONTROLLER(i) VST3_TABLE((i)->controller, Vst3ControllerTable)

static void put(uint8_t *at, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static uint64_t get(const uint8_t *at, int bytes) {
    uint64_t value = 0;
    for (int i = 0; i < bytes; i++) value |= (uint64_t)at[i] << (8 * i);
    return value;
}

static void rewind_stream(void *stream) { VST3_TABLE(stream, Vst3StreamTable)->stream.seek(stream, 0, V3_SEEK_SET, NULL); }

void *vst3_component_state(DetentVst3Instance *instance, v3_result *result) {
    void *stream = vst3_memory_stream_new();
    *result = V3_NOMEM;
    if (!stream) return NULL;
    *result = COMPONENT(instance)->component.get_state(instance->component, (struct v3_bstream **)stream);
    if (*result != V3_OK) {
        vst3_release(stream);
        return NULL;
    }
    rewind_stream(stream);
    return stream;
}

/// The controller's own state in a new stream (empty when it keeps none), or NULL when
/// memory runs out.
static void *controller_state(DetentVst3Instance *instance) {
    void *stream = vst3_memory_stream_new();
    if (!stream || !instance->controller) return stream;
    if (CONTROLLER(instance)->controller.get_state(instance->controller, (struct v3_bstream **)stream) != V3_OK) {
        // A controller that keeps nothing may say so with an error: its state is then empty.
        vst3_release(stream);
        return vst3_memory_stream_new();
    }
    return stream;
}

uint8_t *detent_vst3_state_save(DetentVst3Instance *instance, size_t *size, char *reason, size_t reason_size) {
    *size = 0;
    v3_result result;
    void *component = vst3_component_state(instance, &result);
    if (!component) {
        snprintf(reason, reason_size, "its component gave no state (result %d)", (int)result);
        return NULL;
    }
    void *controller = controller_state(instance);
    if (!controller) {
        vst3_release(component);
        snprintf(reason, reason_size, "ran out of memory");
        return NULL;
    }
    size_t c = 0, k = 0;
    const uint8_t *component_bytes = vst3_memory_stream_bytes(component, &c);
    const uint8_t *controller_bytes = vst3_memory_stream_bytes(controller, &k);
    uint8_t *bytes = malloc(HEADER_SIZE + c + k);
    if (bytes) {
        memcpy(bytes, magic, sizeof magic);
        put(bytes + 4, LAYOUT_VERSION, 4);
        put(bytes + 8, c, 8);
        put(bytes + 16, k, 8);
        if (c) memcpy(bytes + HEADER_SIZE, component_bytes, c);
        if (k) memcpy(bytes + HEADER_SIZE + c, controller_bytes, k);
        *size = HEADER_SIZE + c + k;
    } else {
        snprintf(reason, reason_size, "ran out of memory");
    }
    vst3_release(component);
    vst3_release(controller);
    return bytes;
}

void detent_vst3_state_free(uint8_t *bytes) { free(bytes); }

/// True when the component's state now is exactly `bytes`.
static bool holds(DetentVst3Instance *instance, const uint8_t *bytes, size_t size) {
    v3_result result;
    void *stream = vst3_component_state(instance, &result);
    if (!stream) return false;
    size_t now = 0;
    const uint8_t *current = vst3_memory_stream_bytes(stream, &now);
    bool same = now == size && (size == 0 || memcmp(current, bytes, size) == 0);
    vst3_release(stream);
    return same;
}

bool detent_vst3_state_restore(DetentVst3Instance *instance, const uint8_t *bytes, size_t size, char *reason,
                               size_t reason_size) {
    if (!bytes || size < HEADER_SIZE || memcmp(bytes, magic, sizeof magic) != 0) {
        snprintf(reason, reason_size, "it is not a VST3 state saved by Detent");
        return false;
    }
    uint64_t version = get(bytes + 4, 4), c = get(bytes + 8, 8), k = get(bytes + 16, 8);
    if (version != LAYOUT_VERSION) {
        snprintf(reason, reason_size, "its layout (version %llu) is not one this build reads", (unsigned long long)version);
        return false;
    }
    if (c > size - HEADER_SIZE || k != size - HEADER_SIZE - c) {
        snprintf(reason, reason_size, "its lengths (%llu and %llu bytes) do not match its %zu bytes", (unsigned long long)c,
                 (unsigned long long)k, size);
        return false;
    }
    if (instance->active) {
        snprintf(reason, reason_size, "the plug-in is already active");
        return false;
    }
    const uint8_t *component_bytes = bytes + HEADER_SIZE, *controller_bytes = bytes + HEADER_SIZE + c;

    // A state the component holds already is not given again: nothing would change, and some
    // wrappers cannot read back the states they write for want of anything to keep (DPF's,
    // of its one-byte state for a plug-in without parameters).
    if (c > 0 && !holds(instance, component_bytes, (size_t)c)) {
        void *stream = vst3_memory_stream_with(component_bytes, (size_t)c);
        if (!stream) {
            snprintf(reason, reason_size, "ran out of memory");
            return false;
        }
        v3_result result = COMPONENT(instance)->component.set_state(instance->component, (struct v3_bstream **)stream);
        if (result != V3_OK) {
            vst3_release(stream);
            snprintf(reason, reason_size, "its component refused it (result %d)", (int)result);
            return false;
        }
        if (instance->controller) {
            rewind_stream(stream);
            CONTROLLER(instance)->controller.set_component_state(instance->controller, (struct v3_bstream **)stream);
        }
        vst3_release(stream);
    }
    if (k > 0 && instance->controller) {
        void *stream = vst3_memory_stream_with(controller_bytes, (size_t)k);
        if (!stream) {
            snprintf(reason, reason_size, "ran out of memory");
            return false;
        }
        v3_result result = CONTROLLER(instance)->controller.set_state(instance->controller, (struct v3_bstream **)stream);
        vst3_release(stream);
        if (result != V3_OK && result != V3_NOT_IMPLEMENTED) {
            snprintf(reason, reason_size, "its controller refused its part (result %d)", (int)result);
            return false;
        }
    }
    if (instance->ported) vst3_prime_values(instance);
    return true;
}
