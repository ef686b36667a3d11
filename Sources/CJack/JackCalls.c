// The libjack.so.0 functions Detent calls, defined here as calls into the library opened on first
// use (see DetentLibrary.h, which also says how to add one).
#include "CJack.h"
#include "DetentLibrary.h"
#include <stdarg.h>
#include <stdio.h>

#define JACK_CALLS(F, V) \
    F(int, jack_activate, (jack_client_t *client), (client)) \
    F(int, jack_client_close, (jack_client_t *client), (client)) \
    F(int, jack_client_real_time_priority, (jack_client_t *client), (client)) \
    F(int, jack_connect, (jack_client_t *client, const char *source_port, const char *destination_port), (client, source_port, destination_port)) \
    F(float, jack_cpu_load, (jack_client_t *client), (client)) \
    F(int, jack_deactivate, (jack_client_t *client), (client)) \
    F(jack_nframes_t, jack_frame_time, (const jack_client_t *a0), (a0)) \
    V(jack_free, (void *ptr), (ptr)) \
    F(jack_nframes_t, jack_get_buffer_size, (jack_client_t *a0), (a0)) \
    F(char *, jack_get_client_name, (jack_client_t *client), (client)) \
    F(const char **, jack_get_ports, (jack_client_t *client, const char *port_name_pattern, const char *type_name_pattern, unsigned long flags), (client, port_name_pattern, type_name_pattern, flags)) \
    F(jack_nframes_t, jack_get_sample_rate, (jack_client_t *a0), (a0)) \
    F(char *, jack_get_uuid_for_client_name, (jack_client_t *client, const char *client_name), (client, client_name)) \
    F(const char *, jack_get_version_string, (void), ()) \
    F(jack_nframes_t, jack_last_frame_time, (const jack_client_t *client), (client)) \
    F(jack_transport_state_t, jack_transport_query, (const jack_client_t *client, jack_position_t *pos), (client, pos)) \
    V(jack_midi_clear_buffer, (void *port_buffer), (port_buffer)) \
    F(int, jack_midi_event_get, (jack_midi_event_t *event, void *port_buffer, uint32_t event_index), (event, port_buffer, event_index)) \
    F(int, jack_midi_event_write, (void *port_buffer, jack_nframes_t time, const jack_midi_data_t *data, size_t data_size), (port_buffer, time, data, data_size)) \
    F(uint32_t, jack_midi_get_event_count, (void *port_buffer), (port_buffer)) \
    V(jack_on_info_shutdown, (jack_client_t *client, JackInfoShutdownCallback shutdown_callback, void *arg), (client, shutdown_callback, arg)) \
    V(jack_on_shutdown, (jack_client_t *client, JackShutdownCallback shutdown_callback, void *arg), (client, shutdown_callback, arg)) \
    F(jack_port_t *, jack_port_by_name, (jack_client_t *client, const char *port_name), (client, port_name)) \
    F(void *, jack_port_get_buffer, (jack_port_t *port, jack_nframes_t a1), (port, a1)) \
    F(const char **, jack_port_get_connections, (const jack_port_t *port), (port)) \
    V(jack_port_get_latency_range, (jack_port_t *port, jack_latency_callback_mode_t mode, jack_latency_range_t *range), (port, mode, range)) \
    F(jack_port_t *, jack_port_register, (jack_client_t *client, const char *port_name, const char *port_type, unsigned long flags, unsigned long buffer_size), (client, port_name, port_type, flags, buffer_size)) \
    F(int, jack_port_unregister, (jack_client_t *client, jack_port_t *port), (client, port)) \
    V(jack_port_set_latency_range, (jack_port_t *port, jack_latency_callback_mode_t mode, jack_latency_range_t *range), (port, mode, range)) \
    F(jack_uuid_t, jack_port_uuid, (const jack_port_t *port), (port)) \
    F(int, jack_recompute_total_latencies, (jack_client_t *client), (client)) \
    F(int, jack_set_buffer_size, (jack_client_t *client, jack_nframes_t nframes), (client, nframes)) \
    F(int, jack_set_buffer_size_callback, (jack_client_t *client, JackBufferSizeCallback bufsize_callback, void *arg), (client, bufsize_callback, arg)) \
    V(jack_set_error_function, (void (*func)(const char *)), (func)) \
    V(jack_set_info_function, (void (*func)(const char *)), (func)) \
    F(int, jack_set_latency_callback, (jack_client_t *client, JackLatencyCallback latency_callback, void *a2), (client, latency_callback, a2)) \
    F(int, jack_set_port_connect_callback, (jack_client_t *client, JackPortConnectCallback connect_callback, void *arg), (client, connect_callback, arg)) \
    F(int, jack_set_port_registration_callback, (jack_client_t *client, JackPortRegistrationCallback registration_callback, void *arg), (client, registration_callback, arg)) \
    F(int, jack_set_process_callback, (jack_client_t *client, JackProcessCallback process_callback, void *arg), (client, process_callback, arg)) \
    F(int, jack_set_property, (jack_client_t *a0, jack_uuid_t subject, const char *key, const char *value, const char *type), (a0, subject, key, value, type)) \
    F(int, jack_set_sample_rate_callback, (jack_client_t *client, JackSampleRateCallback srate_callback, void *arg), (client, srate_callback, arg)) \
    F(int, jack_set_xrun_callback, (jack_client_t *client, JackXRunCallback xrun_callback, void *arg), (client, xrun_callback, arg))

// Filled in with the list's functions: the variadic open, written by hand below, and the
// metadata keys, which are variables.
static jack_client_t *(*detent_call_jack_client_open)(const char *, jack_options_t, jack_status_t *, ...);
static const char **pretty_name_key, **order_key;

DETENT_OPENED_ON_FIRST_USE(JACK_CALLS, "libjack.so.0", "live audio through JACK", detent_jack_load,
                           {"jack_client_open", (void **)&detent_call_jack_client_open},
                           {"JACK_METADATA_PRETTY_NAME", (void **)&pretty_name_key},
                           {"JACK_METADATA_ORDER", (void **)&order_key}, )

/// The one variadic call: the tail is a server name, present when `options` asks for one.
/// Detent never passes JackLoadName or JackLoadInit, whose arguments would follow it.
jack_client_t *jack_client_open(const char *client_name, jack_options_t options, jack_status_t *status, ...) {
    detent_library_require(&library);
    if (!(options & JackServerName)) return detent_call_jack_client_open(client_name, options, status);
    va_list tail;
    va_start(tail, status);
    const char *server = va_arg(tail, const char *);
    va_end(tail);
    return detent_call_jack_client_open(client_name, options, status, server);
}

int detent_jack_describe_port(jack_client_t *client, jack_port_t *port, const char *pretty_name, int order) {
    detent_library_require(&library);
    jack_uuid_t uuid = jack_port_uuid(port);
    char position[16];
    snprintf(position, sizeof position, "%d", order);
    int named = jack_set_property(client, uuid, *pretty_name_key, pretty_name, NULL);
    int ordered = jack_set_property(client, uuid, *order_key, position, "http://www.w3.org/2001/XMLSchema#integer");
    return named | ordered;
}
