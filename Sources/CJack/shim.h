#ifndef DETENT_CJACK_SHIM_H
#define DETENT_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/midiport.h>

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

#endif
