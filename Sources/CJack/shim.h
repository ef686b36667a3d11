#ifndef DETENT_CJACK_SHIM_H
#define DETENT_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/metadata.h>
#include <stdio.h>

/// `jack_client_open` is variadic, which Swift cannot call. Detent never passes a server
/// name through the variadic tail (it sets JACK_DEFAULT_SERVER instead), so the wrapper
/// forwards the fixed arguments only.
static inline jack_client_t *detent_jack_client_open(const char *name,
                                                     jack_options_t options,
                                                     jack_status_t *status) {
    return jack_client_open(name, options, status);
}

/// Opens a client on a named server (JackServerName): the one variadic form Detent needs.
static inline jack_client_t *detent_jack_client_open_server(const char *name,
                                                            jack_options_t options,
                                                            jack_status_t *status,
                                                            const char *server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
}

/// Gives a port the pretty name and position patchbays show (JACK metadata, as other hosts
/// set them). Returns 0 when both were set; a server without metadata support refuses, and
/// the port works the same without them.
static inline int detent_jack_describe_port(jack_client_t *client, jack_port_t *port,
                                            const char *pretty_name, int order) {
    jack_uuid_t uuid = jack_port_uuid(port);
    char position[16];
    snprintf(position, sizeof position, "%d", order);
    int named = jack_set_property(client, uuid, JACK_METADATA_PRETTY_NAME, pretty_name, NULL);
    int ordered = jack_set_property(client, uuid, JACK_METADATA_ORDER, position,
                                    "http://www.w3.org/2001/XMLSchema#integer");
    return named | ordered;
}

#endif
