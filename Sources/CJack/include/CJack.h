#ifndef DETENT_CJACK_SHIM_H
#define DETENT_CJACK_SHIM_H

#include <jack/jack.h>
#include <jack/midiport.h>
#include <jack/metadata.h>
#include <jack/thread.h>
#include <stddef.h>
#include <stdint.h>

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

// Port buffers, guarded. PipeWire's libjack 0.3.65 (Debian 12's) unmaps a port's buffers on
// its own thread, not in step with the process thread, when the graph gives the port new ones
// (a rate change does; 0.3.80 began synchronising this): a process callback still reading
// the old buffer faults. So the callback touches port memory only in these short steps — the cycle's inputs
// copied into the engine's own buffers at its start, its outputs copied out at its end — and a
// fault inside one is caught (SIGSEGV and SIGBUS return to the step's start) and turns that
// cycle silent instead of killing the program. Nothing else is caught. No step makes a system
// call: the jump back saves and restores no signal mask.

/// Installs the fault handler (once per process; call before the first guarded step). A fault
/// outside a guarded step goes to the handler that was there before, as if this one were not.
void detent_port_guard_install(void);

/// Copies `count` floats; returns 0, or -1 when reading or writing faulted (then `to` is
/// partly written).
int detent_guarded_copy(float *to, const float *from, uint32_t count);

/// Copies port `c`'s buffer for the cycle to `into + c * stride`. Returns 0; 1 when a port had
/// no buffer (its copy is zeros); -1 when a buffer faulted (every copy is zeros).
int detent_jack_read_audio(jack_port_t *const *ports, int count, jack_nframes_t frames, float *into, size_t stride);

/// Copies `from + c * stride` into port `c`'s buffer for the cycle, or zeros when `from` is
/// NULL. Returns 0; 1 when a port had no buffer; -1 when a buffer faulted.
int detent_jack_write_audio(jack_port_t *const *ports, int count, jack_nframes_t frames, const float *from, size_t stride);

/// One MIDI message of a cycle: its frame in the cycle, its size and where its bytes are.
typedef struct DetentPortMIDIEvent {
    uint32_t frame;
    uint32_t size;
    const uint8_t *bytes;
} DetentPortMIDIEvent;

/// Copies MIDI input `port`'s messages for the cycle into `events` (at most `capacity`; those
/// beyond are left out) and their bytes into `bytes` (at most `byteCapacity`; a message that
/// does not fit is left out), in one guarded step: PipeWire's libjack gathers a MIDI input
/// from its peers' buffers inside `jack_port_get_buffer`, and the messages are read from that
/// memory. Returns the number copied (0 when the port had no buffer), or -1 when it faulted.
int detent_jack_read_midi(jack_port_t *port, jack_nframes_t frames, DetentPortMIDIEvent *events, int capacity,
                          uint8_t *bytes, size_t byteCapacity);

/// Clears MIDI output `port`'s buffer for the cycle and writes `events` (in time order) into
/// it, in one guarded step. Returns 0; 1 when the port had no buffer; -1 when it faulted.
int detent_jack_write_midi(jack_port_t *port, jack_nframes_t frames, const DetentPortMIDIEvent *events, int count);

/// The two steps above on a port buffer already had (what they do after
/// `jack_port_get_buffer`), for tests: -1 when reading or writing `buffer` faulted.
int detent_jack_read_midi_buffer(void *buffer, DetentPortMIDIEvent *events, int capacity, uint8_t *bytes, size_t byteCapacity);
int detent_jack_write_midi_buffer(void *buffer, const DetentPortMIDIEvent *events, int count);

#endif
