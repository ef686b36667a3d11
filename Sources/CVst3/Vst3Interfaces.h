#ifndef DETENT_VST3_INTERFACES_H
#define DETENT_VST3_INTERFACES_H

// The VST3 interfaces as this bridge calls and implements them, from travesty's declarations
// (the interface ids, the data structures, the method tables).
//
// travesty writes an interface that extends another as `struct v3_funknown;` inside the
// derived table, which only a compiler with Microsoft's anonymous-struct extension reads as
// "the base's methods first". Without it (as here) each travesty table holds its own methods
// only, so a whole method table is put together below from its parts in their ABI order:
// FUnknown's three, then each base's, then the interface's own. The static assertions catch
// a build in which the extension is on (the parts would then repeat the bases).

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-declarations"
#pragma clang diagnostic ignored "-Wmicrosoft-anon-tag"
#pragma clang diagnostic ignored "-Wunused-function"
#elif defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
// A few travesty declarations name a structure without its `struct` tag, as C++ allows.
typedef struct v3_attribute_list v3_attribute_list;
typedef struct v3_event_handler v3_event_handler;
typedef struct v3_timer_handler v3_timer_handler;
#include <travesty/audio_processor.h>
#include <travesty/base.h>
#include <travesty/bstream.h>
#include <travesty/component.h>
#include <travesty/edit_controller.h>
#include <travesty/events.h>
#include <travesty/factory.h>
#include <travesty/host.h>
#include <travesty/message.h>
#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

_Static_assert(sizeof(struct v3_plugin_base) == 2 * sizeof(void *), "travesty tables must hold their own methods only");
_Static_assert(sizeof(struct v3_component) == 9 * sizeof(void *), "travesty tables must hold their own methods only");
_Static_assert(sizeof(struct v3_plugin_factory_3) == 2 * sizeof(void *), "travesty tables must hold their own methods only");

/// The whole method table of each interface, bases first.
typedef struct Vst3FactoryTable {
    struct v3_funknown unknown;
    struct v3_plugin_factory factory;
    struct v3_plugin_factory_2 factory2;
    struct v3_plugin_factory_3 factory3;
} Vst3FactoryTable;

typedef struct Vst3ComponentTable {
    struct v3_funknown unknown;
    struct v3_plugin_base base;
    struct v3_component component;
} Vst3ComponentTable;

typedef struct Vst3ControllerTable {
    struct v3_funknown unknown;
    struct v3_plugin_base base;
    struct v3_edit_controller controller;
} Vst3ControllerTable;

typedef struct Vst3ProcessorTable {
    struct v3_funknown unknown;
    struct v3_audio_processor processor;
} Vst3ProcessorTable;

typedef struct Vst3ConnectionTable {
    struct v3_funknown unknown;
    struct v3_connection_point connection;
} Vst3ConnectionTable;

typedef struct Vst3HostTable {
    struct v3_funknown unknown;
    struct v3_host_application host;
} Vst3HostTable;

typedef struct Vst3HandlerTable {
    struct v3_funknown unknown;
    struct v3_component_handler handler;
} Vst3HandlerTable;

typedef struct Vst3StreamTable {
    struct v3_funknown unknown;
    struct v3_bstream stream;
} Vst3StreamTable;

typedef struct Vst3QueueTable {
    struct v3_funknown unknown;
    struct v3_param_value_queue queue;
} Vst3QueueTable;

typedef struct Vst3ChangesTable {
    struct v3_funknown unknown;
    struct v3_param_changes changes;
} Vst3ChangesTable;

typedef struct Vst3EventsTable {
    struct v3_funknown unknown;
    struct v3_event_list events;
} Vst3EventsTable;

typedef struct Vst3MessageTable {
    struct v3_funknown unknown;
    struct v3_message message;
} Vst3MessageTable;

typedef struct Vst3AttributesTable {
    struct v3_funknown unknown;
    struct v3_attribute_list attributes;
} Vst3AttributesTable;

/// A VST3 object as its user holds it: a pointer to a pointer to its method table.
#define VST3_TABLE(object, Table) (*(const Table *const *)(object))
#define VST3_UNKNOWN(object) VST3_TABLE(object, struct v3_funknown)

/// Asks `object` for the interface `iid`; NULL when it has none.
static inline void *vst3_query(void *object, const v3_tuid iid) {
    void *found = NULL;
    if (!object) return NULL;
    if (VST3_UNKNOWN(object)->query_interface(object, iid, &found) != V3_OK) return NULL;
    return found;
}

static inline void vst3_release(void *object) {
    if (object) VST3_UNKNOWN(object)->unref(object);
}

/// The UTF-8 form of a UTF-16 string of at most `length` units (ends at the first zero),
/// written into `out` (`size` bytes, always terminated).
void vst3_utf8(const int16_t *text, size_t length, char *out, size_t size);
/// The UTF-16 form of a UTF-8 string, truncated to `length - 1` units and terminated.
void vst3_utf16(const char *text, int16_t *out, size_t length);

/// The objects the host gives plug-ins (Vst3HostObjects.c).
struct v3_funknown **vst3_host_application(void);
/// A new growable stream in memory (reference count 1), or NULL.
void *vst3_memory_stream_new(void);
/// A new stream in memory holding a copy of `bytes`, read from its start; NULL when memory
/// runs out or it is too long for a stream (2 GiB).
void *vst3_memory_stream_with(const uint8_t *bytes, size_t size);
/// Everything written into a stream `vst3_memory_stream_new` made (valid until it is
/// written again or released), and its length.
const uint8_t *vst3_memory_stream_bytes(void *stream, size_t *size);

#endif
