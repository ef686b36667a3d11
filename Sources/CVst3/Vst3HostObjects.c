// The objects a VST3 host gives its plug-ins outside processing: the host application (its
// name, and the messages and attribute lists a component and its controller exchange through
// their connection points), and a stream in memory through which the component's state
// reaches its controller. None of them is used on the audio thread by this host; they
// allocate freely.

#include "Vst3Interfaces.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// MARK: text

void vst3_utf8(const int16_t *text, size_t length, char *out, size_t size) {
    size_t n = 0;
    if (size == 0) return;
    for (size_t i = 0; i < length && text[i] != 0; i++) {
        uint32_t c = (uint16_t)text[i];
        if (c >= 0xD800 && c < 0xDC00 && i + 1 < length) {
            uint32_t low = (uint16_t)text[i + 1];
            if (low >= 0xDC00 && low < 0xE000) {
                c = 0x10000 + ((c - 0xD800) << 10) + (low - 0xDC00);
                i++;
            }
        }
        char bytes[4];
        size_t count;
        if (c < 0x80) {
            bytes[0] = (char)c;
            count = 1;
        } else if (c < 0x800) {
            bytes[0] = (char)(0xC0 | (c >> 6));
            bytes[1] = (char)(0x80 | (c & 0x3F));
            count = 2;
        } else if (c < 0x10000) {
            bytes[0] = (char)(0xE0 | (c >> 12));
            bytes[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            bytes[2] = (char)(0x80 | (c & 0x3F));
            count = 3;
        } else {
            bytes[0] = (char)(0xF0 | (c >> 18));
            bytes[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            bytes[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            bytes[3] = (char)(0x80 | (c & 0x3F));
            count = 4;
        }
        if (n + count >= size) break;
        memcpy(out + n, bytes, count);
        n += count;
    }
    out[n] = 0;
}

void vst3_utf16(const char *text, int16_t *out, size_t length) {
    size_t n = 0;
    const unsigned char *s = (const unsigned char *)text;
    if (length == 0) return;
    while (*s && n + 1 < length) {
        uint32_t c = *s++;
        if (c >= 0xF0 && s[0] && s[1] && s[2]) {
            c = ((c & 0x07) << 18) | ((uint32_t)(s[0] & 0x3F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
            s += 3;
        } else if (c >= 0xE0 && s[0] && s[1]) {
            c = ((c & 0x0F) << 12) | ((uint32_t)(s[0] & 0x3F) << 6) | (s[1] & 0x3F);
            s += 2;
        } else if (c >= 0xC0 && s[0]) {
            c = ((c & 0x1F) << 6) | (s[0] & 0x3F);
            s += 1;
        }
        if (c >= 0x10000) {
            if (n + 2 >= length) break;
            c -= 0x10000;
            out[n++] = (int16_t)(0xD800 + (c >> 10));
            out[n++] = (int16_t)(0xDC00 + (c & 0x3FF));
        } else {
            out[n++] = (int16_t)c;
        }
    }
    out[n] = 0;
}

// MARK: attribute lists

typedef enum { ATTRIBUTE_INT, ATTRIBUTE_FLOAT, ATTRIBUTE_STRING, ATTRIBUTE_BINARY } AttributeType;

typedef struct Attribute {
    struct Attribute *next;
    char *id;
    AttributeType type;
    int64_t integer;
    double number;
    /// A string's UTF-16 units (terminated) or a binary's bytes.
    void *data;
    uint32_t size;
} Attribute;

typedef struct AttributeList {
    const Vst3AttributesTable *table;
    atomic_uint references;
    Attribute *first;
} AttributeList;

static v3_result attributes_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_attribute_list_iid)) {
        atomic_fetch_add(&((AttributeList *)self)->references, 1);
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static uint32_t attributes_ref(void *self) { return atomic_fetch_add(&((AttributeList *)self)->references, 1) + 1; }

static uint32_t attributes_unref(void *self) {
    AttributeList *list = self;
    uint32_t left = atomic_fetch_sub(&list->references, 1) - 1;
    if (left == 0) {
        for (Attribute *a = list->first, *next; a; a = next) {
            next = a->next;
            free(a->id);
            free(a->data);
            free(a);
        }
        free(list);
    }
    return left;
}

/// The attribute called `id`, made (empty) when `create` and there is none.
static Attribute *attribute(AttributeList *list, const char *id, bool create) {
    if (!id) return NULL;
    for (Attribute *a = list->first; a; a = a->next) {
        if (strcmp(a->id, id) == 0) {
            if (create) {
                free(a->data);
                a->data = NULL;
                a->size = 0;
            }
            return a;
        }
    }
    if (!create) return NULL;
    Attribute *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->id = strdup(id);
    if (!a->id) {
        free(a);
        return NULL;
    }
    a->next = list->first;
    list->first = a;
    return a;
}

static v3_result attributes_set_int(void *self, const char *id, int64_t value) {
    Attribute *a = attribute(self, id, true);
    if (!a) return V3_NOMEM;
    a->type = ATTRIBUTE_INT;
    a->integer = value;
    return V3_OK;
}

static v3_result attributes_get_int(void *self, const char *id, int64_t *value) {
    Attribute *a = attribute(self, id, false);
    if (!a || a->type != ATTRIBUTE_INT) return V3_FALSE;
    *value = a->integer;
    return V3_OK;
}

static v3_result attributes_set_float(void *self, const char *id, double value) {
    Attribute *a = attribute(self, id, true);
    if (!a) return V3_NOMEM;
    a->type = ATTRIBUTE_FLOAT;
    a->number = value;
    return V3_OK;
}

static v3_result attributes_get_float(void *self, const char *id, double *value) {
    Attribute *a = attribute(self, id, false);
    if (!a || a->type != ATTRIBUTE_FLOAT) return V3_FALSE;
    *value = a->number;
    return V3_OK;
}

static v3_result attributes_set_string(void *self, const char *id, const int16_t *string) {
    if (!string) return V3_INVALID_ARG;
    size_t units = 0;
    while (string[units]) units++;
    Attribute *a = attribute(self, id, true);
    if (!a) return V3_NOMEM;
    a->type = ATTRIBUTE_STRING;
    a->size = (uint32_t)((units + 1) * sizeof(int16_t));
    a->data = malloc(a->size);
    if (!a->data) return V3_NOMEM;
    memcpy(a->data, string, a->size);
    return V3_OK;
}

/// `size` is in bytes, as the interface defines it.
static v3_result attributes_get_string(void *self, const char *id, int16_t *string, uint32_t size) {
    Attribute *a = attribute(self, id, false);
    if (!a || a->type != ATTRIBUTE_STRING || size < sizeof(int16_t)) return V3_FALSE;
    uint32_t bytes = a->size < size ? a->size : size;
    memcpy(string, a->data, bytes);
    string[bytes / sizeof(int16_t) - 1] = 0;
    return V3_OK;
}

static v3_result attributes_set_binary(void *self, const char *id, const void *data, uint32_t size) {
    Attribute *a = attribute(self, id, true);
    if (!a) return V3_NOMEM;
    a->type = ATTRIBUTE_BINARY;
    a->data = malloc(size ? size : 1);
    if (!a->data) return V3_NOMEM;
    if (size) memcpy(a->data, data, size);
    a->size = size;
    return V3_OK;
}

static v3_result attributes_get_binary(void *self, const char *id, const void **data, uint32_t *size) {
    Attribute *a = attribute(self, id, false);
    if (!a || a->type != ATTRIBUTE_BINARY) return V3_FALSE;
    *data = a->data;
    *size = a->size;
    return V3_OK;
}

static const Vst3AttributesTable attributes_table = {
    .unknown = {attributes_query, attributes_ref, attributes_unref},
    .attributes = {attributes_set_int, attributes_get_int, attributes_set_float, attributes_get_float, attributes_set_string,
                   attributes_get_string, attributes_set_binary, attributes_get_binary},
};

static AttributeList *attributes_new(void) {
    AttributeList *list = calloc(1, sizeof *list);
    if (!list) return NULL;
    list->table = &attributes_table;
    atomic_init(&list->references, 1);
    return list;
}

// MARK: messages

typedef struct Message {
    const Vst3MessageTable *table;
    atomic_uint references;
    char *id;
    AttributeList *attributes;
} Message;

static v3_result message_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_message_iid)) {
        atomic_fetch_add(&((Message *)self)->references, 1);
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static uint32_t message_ref(void *self) { return atomic_fetch_add(&((Message *)self)->references, 1) + 1; }

static uint32_t message_unref(void *self) {
    Message *message = self;
    uint32_t left = atomic_fetch_sub(&message->references, 1) - 1;
    if (left == 0) {
        attributes_unref(message->attributes);
        free(message->id);
        free(message);
    }
    return left;
}

static const char *message_id(void *self) { return ((Message *)self)->id; }

static void message_set_id(void *self, const char *id) {
    Message *message = self;
    char *copy = id ? strdup(id) : NULL;
    free(message->id);
    message->id = copy;
}

static v3_attribute_list **message_attributes(void *self) { return (v3_attribute_list **)((Message *)self)->attributes; }

static const Vst3MessageTable message_table = {
    .unknown = {message_query, message_ref, message_unref},
    .message = {message_id, message_set_id, message_attributes},
};

static Message *message_new(void) {
    Message *message = calloc(1, sizeof *message);
    if (!message) return NULL;
    message->attributes = attributes_new();
    if (!message->attributes) {
        free(message);
        return NULL;
    }
    message->table = &message_table;
    atomic_init(&message->references, 1);
    return message;
}

// MARK: the host application

typedef struct HostApplication {
    const Vst3HostTable *table;
} HostApplication;

static v3_result host_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_host_application_iid)) {
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

/// The host application lives as long as the process: counting its references is moot.
static uint32_t host_ref(void *self) {
    (void)self;
    return 1;
}

static uint32_t host_unref(void *self) {
    (void)self;
    return 1;
}

static v3_result host_name(void *self, v3_str_128 name) {
    (void)self;
    vst3_utf16("Detent", name, 128);
    return V3_OK;
}

/// Makes the messages and attribute lists plug-ins ask for (the class id and the interface
/// id are both the interface's, by the SDK's convention).
static v3_result host_create(void *self, v3_tuid cid, v3_tuid iid, void **object) {
    (void)self;
    *object = NULL;
    if (v3_tuid_match(cid, v3_message_iid) || v3_tuid_match(iid, v3_message_iid)) {
        *object = message_new();
    } else if (v3_tuid_match(cid, v3_attribute_list_iid) || v3_tuid_match(iid, v3_attribute_list_iid)) {
        *object = attributes_new();
    } else {
        return V3_NO_INTERFACE;
    }
    return *object ? V3_OK : V3_NOMEM;
}

static const Vst3HostTable host_table = {
    .unknown = {host_query, host_ref, host_unref},
    .host = {host_name, host_create},
};

static HostApplication host_application = {&host_table};

struct v3_funknown **vst3_host_application(void) { return (struct v3_funknown **)&host_application; }

// MARK: a stream in memory

typedef struct MemoryStream {
    const Vst3StreamTable *table;
    atomic_uint references;
    uint8_t *bytes;
    int64_t size, capacity, position;
} MemoryStream;

static v3_result stream_query(void *self, const v3_tuid iid, void **object) {
    if (v3_tuid_match(iid, v3_funknown_iid) || v3_tuid_match(iid, v3_bstream_iid)) {
        atomic_fetch_add(&((MemoryStream *)self)->references, 1);
        *object = self;
        return V3_OK;
    }
    *object = NULL;
    return V3_NO_INTERFACE;
}

static uint32_t stream_ref(void *self) { return atomic_fetch_add(&((MemoryStream *)self)->references, 1) + 1; }

static uint32_t stream_unref(void *self) {
    MemoryStream *stream = self;
    uint32_t left = atomic_fetch_sub(&stream->references, 1) - 1;
    if (left == 0) {
        free(stream->bytes);
        free(stream);
    }
    return left;
}

static v3_result stream_read(void *self, void *buffer, int32_t count, int32_t *done) {
    MemoryStream *stream = self;
    int64_t available = stream->size - stream->position;
    int32_t n = count < 0 ? 0 : available < count ? (int32_t)(available > 0 ? available : 0) : count;
    if (n > 0) memcpy(buffer, stream->bytes + stream->position, (size_t)n);
    stream->position += n;
    if (done) *done = n;
    return V3_OK;
}

static v3_result stream_write(void *self, void *buffer, int32_t count, int32_t *done) {
    MemoryStream *stream = self;
    if (done) *done = 0;
    if (count < 0) return V3_INVALID_ARG;
    int64_t end = stream->position + count;
    if (end > stream->capacity) {
        int64_t capacity = stream->capacity ? stream->capacity : 4096;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(stream->bytes, (size_t)capacity);
        if (!grown) return V3_NOMEM;
        memset(grown + stream->capacity, 0, (size_t)(capacity - stream->capacity));
        stream->bytes = grown;
        stream->capacity = capacity;
    }
    if (count) memcpy(stream->bytes + stream->position, buffer, (size_t)count);
    stream->position = end;
    if (end > stream->size) stream->size = end;
    if (done) *done = count;
    return V3_OK;
}

static v3_result stream_seek(void *self, int64_t offset, int32_t mode, int64_t *result) {
    MemoryStream *stream = self;
    int64_t base = mode == V3_SEEK_SET ? 0 : mode == V3_SEEK_CUR ? stream->position : mode == V3_SEEK_END ? stream->size : -1;
    if (base < 0 || base + offset < 0) return V3_INVALID_ARG;
    stream->position = base + offset;
    if (result) *result = stream->position;
    return V3_OK;
}

static v3_result stream_tell(void *self, int64_t *position) {
    if (!position) return V3_INVALID_ARG;
    *position = ((MemoryStream *)self)->position;
    return V3_OK;
}

static const Vst3StreamTable stream_table = {
    .unknown = {stream_query, stream_ref, stream_unref},
    .stream = {stream_read, stream_write, stream_seek, stream_tell},
};

void *vst3_memory_stream_new(void) {
    MemoryStream *stream = calloc(1, sizeof *stream);
    if (!stream) return NULL;
    stream->table = &stream_table;
    atomic_init(&stream->references, 1);
    return stream;
}

void *vst3_memory_stream_with(const uint8_t *bytes, size_t size) {
    MemoryStream *stream = vst3_memory_stream_new();
    if (!stream) return NULL;
    int32_t done = 0;
    if (size > INT32_MAX || stream_write(stream, (void *)bytes, (int32_t)size, &done) != V3_OK || (size_t)done != size) {
        stream_unref(stream);
        return NULL;
    }
    stream->position = 0;
    return stream;
}

const uint8_t *vst3_memory_stream_bytes(void *stream, size_t *size) {
    MemoryStream *memory = stream;
    *size = (size_t)memory->size;
    return memory->bytes;
}
