#ifndef DETENT_CJACK_SHIM_H
#define DETENT_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/metadata.h>

/// `jack_client_open` is variadic, which Swift cannot call: this form opens a client on the
/// default server (or `$JACK_DEFAULT_SERVER`'s).
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
int detent_jack_describe_port(jack_client_t *client, jack_port_t *port, const char *pretty_name, int order);

/// Opens libjack (once per process; see DetentLibrary.h). Returns NULL, or why it cannot be
/// loaded (the loader's one-line message).
const char *detent_jack_load(void);

#endif
