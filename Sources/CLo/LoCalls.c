// The liblo.so.7 functions Detent calls, defined here as calls into the library opened on first
// use (see DetentLibrary.h, which also says how to add one).
#include "CLo.h"
#include "DetentLibrary.h"

#define LO_CALLS(F, V) \
    F(char *, lo_get_path, (void *data, ssize_t size), (data, size)) \
    F(int, lo_message_add_double, (lo_message m, double a), (m, a)) \
    F(int, lo_message_add_float, (lo_message m, float a), (m, a)) \
    F(int, lo_message_add_int32, (lo_message m, int32_t a), (m, a)) \
    F(int, lo_message_add_string, (lo_message m, const char *a), (m, a)) \
    F(lo_message, lo_message_deserialise, (void *data, size_t size, int *result), (data, size, result)) \
    V(lo_message_free, (lo_message m), (m)) \
    F(int, lo_message_get_argc, (lo_message m), (m)) \
    F(lo_arg **, lo_message_get_argv, (lo_message m), (m)) \
    F(char *, lo_message_get_types, (lo_message m), (m)) \
    F(lo_message, lo_message_new, (void), ()) \
    F(void *, lo_message_serialise, (lo_message m, const char *path, void *to, size_t *size), (m, path, to, size))

DETENT_OPENED_ON_FIRST_USE(LO_CALLS, "liblo.so.7", "OSC", detent_lo_load)
