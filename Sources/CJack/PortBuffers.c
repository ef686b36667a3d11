// Port buffers read and written in one guarded step each way: see CJack.h for why.
#include "CJack.h"
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

// Per thread: where a fault inside a guarded step returns to, and whether one is running. The
// initial-exec model keeps the first access free of allocation (this code is in the program,
// not in a library opened later).
static __thread sigjmp_buf *guard_return __attribute__((tls_model("initial-exec")));
static __thread volatile sig_atomic_t guard_running __attribute__((tls_model("initial-exec")));

static struct sigaction previous_segv, previous_bus;

// One guarded step: a fault between GUARD_BEGIN and GUARD_END returns `fault` from the function
// (sigsetjmp must be in the function whose frame the jump returns to, hence a macro).
#define GUARD_BEGIN(fault)                      \
    sigjmp_buf here;                            \
    if (sigsetjmp(here, 0) != 0) return (fault); \
    guard_return = &here;                       \
    guard_running = 1
#define GUARD_END() guard_running = 0
static pthread_once_t guard_once = PTHREAD_ONCE_INIT;

// A fault inside a guarded step returns to its start. Any other goes on to the handler that
// was there before, as if this one were not: called directly when it is a function (the
// runtime's backtracer, a test's); when it is the default action, that action is put back and
// the faulting instruction runs again (a signal someone sent is raised again), so a crash
// still crashes and dumps its core.
static void guard_fault(int signal, siginfo_t *info, void *context) {
    if (guard_running) {
        guard_running = 0;
        siglongjmp(*guard_return, 1);
    }
    const struct sigaction *previous = signal == SIGSEGV ? &previous_segv : &previous_bus;
    if (previous->sa_flags & SA_SIGINFO) {
        previous->sa_sigaction(signal, info, context);
    } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal);
    } else {
        struct sigaction fallback;
        memset(&fallback, 0, sizeof fallback);
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(signal, &fallback, NULL);
        if (info == NULL || info->si_code <= 0) raise(signal);
    }
}

static void guard_install_once(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = guard_fault;
    // No signal is blocked while it runs, so leaving it by a jump keeps the thread's mask as
    // it was (the jump itself restores no mask: that would be a system call).
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &previous_segv);
    sigaction(SIGBUS, &action, &previous_bus);
}

void detent_port_guard_install(void) { pthread_once(&guard_once, guard_install_once); }

int detent_guarded_copy(float *to, const float *from, uint32_t count) {
    GUARD_BEGIN(-1);
    memcpy(to, from, (size_t)count * sizeof(float));
    GUARD_END();
    return 0;
}

int detent_jack_read_audio(jack_port_t *const *ports, int count, jack_nframes_t frames, float *into, size_t stride) {
    sigjmp_buf here;
    if (sigsetjmp(here, 0) != 0) {
        for (int c = 0; c < count; c++) memset(into + c * stride, 0, (size_t)frames * sizeof(float));
        return -1;
    }
    guard_return = &here;
    guard_running = 1;
    int missing = 0;
    for (int c = 0; c < count; c++) {
        const float *from = jack_port_get_buffer(ports[c], frames);
        if (from == NULL) {
            memset(into + c * stride, 0, (size_t)frames * sizeof(float));
            missing = 1;
        } else {
            memcpy(into + c * stride, from, (size_t)frames * sizeof(float));
        }
    }
    GUARD_END();
    return missing;
}

int detent_jack_write_audio(jack_port_t *const *ports, int count, jack_nframes_t frames, const float *from, size_t stride) {
    GUARD_BEGIN(-1);
    int missing = 0;
    for (int c = 0; c < count; c++) {
        float *to = jack_port_get_buffer(ports[c], frames);
        if (to == NULL) {
            missing = 1;
        } else if (from == NULL) {
            memset(to, 0, (size_t)frames * sizeof(float));
        } else {
            memcpy(to, from + c * stride, (size_t)frames * sizeof(float));
        }
    }
    GUARD_END();
    return missing;
}

// The MIDI steps' bodies, run inside a guard: the port's messages copied out, or written in.
static int read_midi(void *buffer, DetentPortMIDIEvent *events, int capacity, uint8_t *bytes, size_t byteCapacity) {
    if (buffer == NULL) return 0;
    uint32_t available = jack_midi_get_event_count(buffer);
    size_t used = 0;
    int count = 0;
    jack_midi_event_t event;
    for (uint32_t i = 0; i < available && count < capacity; i++) {
        if (jack_midi_event_get(&event, buffer, i) != 0 || event.size == 0 || event.buffer == NULL) continue;
        if (event.size > byteCapacity - used) continue;
        memcpy(bytes + used, event.buffer, event.size);
        events[count].frame = event.time;
        events[count].size = (uint32_t)event.size;
        events[count].bytes = bytes + used;
        used += event.size;
        count++;
    }
    return count;
}

static void write_midi(void *buffer, const DetentPortMIDIEvent *events, int count) {
    jack_midi_clear_buffer(buffer);
    // A full buffer refuses the rest, as JACK does.
    for (int i = 0; i < count; i++) jack_midi_event_write(buffer, events[i].frame, events[i].bytes, events[i].size);
}

int detent_jack_read_midi(jack_port_t *port, jack_nframes_t frames, DetentPortMIDIEvent *events, int capacity,
                          uint8_t *bytes, size_t byteCapacity) {
    GUARD_BEGIN(-1);
    int count = read_midi(jack_port_get_buffer(port, frames), events, capacity, bytes, byteCapacity);
    GUARD_END();
    return count;
}

int detent_jack_write_midi(jack_port_t *port, jack_nframes_t frames, const DetentPortMIDIEvent *events, int count) {
    GUARD_BEGIN(-1);
    void *buffer = jack_port_get_buffer(port, frames);
    if (buffer != NULL) write_midi(buffer, events, count);
    GUARD_END();
    return buffer == NULL;
}

int detent_jack_read_midi_buffer(void *buffer, DetentPortMIDIEvent *events, int capacity, uint8_t *bytes, size_t byteCapacity) {
    GUARD_BEGIN(-1);
    int count = read_midi(buffer, events, capacity, bytes, byteCapacity);
    GUARD_END();
    return count;
}

int detent_jack_write_midi_buffer(void *buffer, const DetentPortMIDIEvent *events, int count) {
    GUARD_BEGIN(-1);
    write_midi(buffer, events, count);
    GUARD_END();
    return 0;
}
