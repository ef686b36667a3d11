#define _GNU_SOURCE
#include "Slot.h"
#include "CRealtime.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mman.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "CRealtime.h"

// The futex words are shared between processes: FUTEX_WAIT and FUTEX_WAKE without
// FUTEX_PRIVATE_FLAG.

static inline uint32_t load(const uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }
static inline void store(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_RELEASE); }

// The two system calls an isolated slot's proxy makes on the audio thread, in functions of
// their own so that RealtimeSanitizer can allow them by name (.ci/rtsan-suppressions) and
// still catch anything else the proxy might call.

/// Wakes every waiter on `word` (FUTEX_WAKE: it never blocks).
__attribute__((noinline)) void detent_slot_futex_wake(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/// Waits while `*word` is `value`, at most `timeout_ns` (negative: no limit). Returns when
/// woken, the word differs, the time is up or a signal came: the caller looks again.
__attribute__((noinline)) void detent_slot_futex_wait(uint32_t *word, uint32_t value, int64_t timeout_ns) {
    if (timeout_ns < 0) {
        syscall(SYS_futex, word, FUTEX_WAIT, value, NULL, NULL, 0);
        return;
    }
    struct timespec t = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
    syscall(SYS_futex, word, FUTEX_WAIT, value, &t, NULL, 0);
}

static inline void wake(uint32_t *word) { detent_slot_futex_wake(word); }
static inline void wait_while(uint32_t *word, uint32_t value, int64_t timeout_ns) { detent_slot_futex_wait(word, value, timeout_ns); }

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/// How many times the proxy looks for an answer before it sleeps on it (a few microseconds).
#ifndef DETENT_SLOT_SPIN
#define DETENT_SLOT_SPIN 200
#endif

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static inline uint8_t *block(DetentSlotShared *shared) { return (uint8_t *)shared; }

static size_t align64(size_t n) { return (n + 63) & ~(size_t)63; }

size_t detent_slot_layout(DetentSlotShared *shared, uint32_t channels, uint32_t max_frames, uint32_t controls,
                          uint32_t outputs) {
    memset(shared, 0, sizeof *shared);
    shared->channels = channels;
    shared->max_frames = max_frames;
    shared->controls = controls;
    shared->outputs = outputs;
    size_t at = align64(sizeof *shared);
    size_t audio = align64((size_t)channels * max_frames * sizeof(float));
    size_t events = align64(DETENT_SLOT_EVENTS * sizeof(DetentSlotEvent)) + DETENT_SLOT_EVENT_BYTES;
    shared->off_controls = at, at += align64((controls + 1) * sizeof(float));
    shared->off_inputs = at, at += audio;
    shared->off_outputs = at, at += audio;
    shared->off_side = at, at += audio;
    shared->off_values = at, at += align64((outputs + 1) * sizeof(float));
    shared->off_own = at, at += align64((controls + 1) * sizeof(DetentSlotOwn));
    shared->off_events = at, at += align64(events);
    shared->off_midi_out = at, at += align64(events);
    shared->size = at;
    return at;
}

int detent_slot_memory(size_t size) {
    int fd = memfd_create("detent-slot", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0 || fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

DetentSlotShared *detent_slot_map(int fd, size_t size) {
    void *at = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    return at == MAP_FAILED ? NULL : at;
}

void detent_slot_unmap(DetentSlotShared *shared, size_t size) { munmap(shared, size); }

uint32_t detent_slot_state(const DetentSlotShared *shared) { return load(&shared->state); }

void detent_slot_set_state(DetentSlotShared *shared, uint32_t state) {
    store(&shared->state, state);
    wake(&shared->state);
    wake(&shared->request);
    wake(&shared->reply);
}

void detent_slot_wait_state(DetentSlotShared *shared, uint32_t from, int64_t timeout_ns) {
    if (load(&shared->state) == from) wait_while(&shared->state, from, timeout_ns);
}

uint32_t detent_slot_load(const uint32_t *word) { return load(word); }

void detent_slot_own_write(DetentSlotShared *shared, uint32_t row, double value) {
    if (row >= shared->controls) return;
    DetentSlotOwn *own = (DetentSlotOwn *)((char *)shared + shared->off_own) + row;
    uint64_t bits;
    memcpy(&bits, &value, sizeof bits);
    __atomic_store_n((uint64_t *)&own->value, bits, __ATOMIC_RELAXED);
    __atomic_add_fetch(&own->count, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&shared->own, 1, __ATOMIC_RELEASE);
}

uint32_t detent_slot_own_take(const DetentSlotShared *shared, const DetentSlotShared *layout, uint32_t *seen, uint32_t *rows,
                              double *values, uint32_t capacity) {
    const DetentSlotOwn *own = (const DetentSlotOwn *)((const char *)shared + layout->off_own);
    uint32_t taken = 0;
    for (uint32_t row = 0; row < layout->controls && taken < capacity; row++) {
        uint32_t count = __atomic_load_n(&own[row].count, __ATOMIC_ACQUIRE);
        if (count == seen[row]) continue;
        seen[row] = count;
        uint64_t bits = __atomic_load_n((const uint64_t *)&own[row].value, __ATOMIC_RELAXED);
        memcpy(&values[taken], &bits, sizeof bits);
        rows[taken++] = row;
    }
    return taken;
}

void detent_slot_bump(uint32_t *word) { __atomic_add_fetch(word, 1, __ATOMIC_RELAXED); }

void detent_slot_wake_reply(DetentSlotShared *shared) { wake(&shared->reply); }

// MARK: The host's half

/// Tells the sandbox's serving thread that a request waits: the bell moves, and the thread is
/// woken only when it sleeps (one still busy with another slot sees the bell move when it
/// looks again). True when it had to be woken.
/// The request is stored before the bell moves, and the bell read before the thread sleeps,
/// so no request is left unseen.
static inline bool ring(DetentSlotGroup *group) {
    __atomic_add_fetch(&group->bell, 1, __ATOMIC_SEQ_CST);
    if (!__atomic_load_n(&group->sleeping, __ATOMIC_SEQ_CST)) return false;
    wake(&group->bell);
    return true;
}

/// The audio thread's mark that the slot failed: its own flag, and LATE for a slot still
/// READY (the monitor thread kills it), with one wake for the monitor.
static void fail(DetentSlotProxy *proxy) {
    if (proxy->failed) return;
    proxy->failed = 1;
    uint32_t ready = DETENT_SLOT_READY;
    if (__atomic_compare_exchange_n(&proxy->shared->state, &ready, DETENT_SLOT_LATE, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE)) {
        wake(&proxy->shared->state);
    }
    __atomic_add_fetch(&proxy->health, 1, __ATOMIC_RELEASE);
}

/// Waits until `last`'s reply is `sequence`, at most `limit_ns`; false when one of the
/// `count` slots `watched` went down or the time is up. A slot that answers within a few
/// microseconds (its sandbox was awake, on another core) is waited for by looking, not by
/// sleeping: that saves the audio thread a sleep and a wake. One whose sandbox had to be
/// `woken` takes longer than the look lasts: it is slept on at once.
static bool await_reply(DetentSlotProxy *const *watched, intptr_t count, DetentSlotShared *last, uint32_t sequence,
                        int64_t limit_ns, bool woken) {
    int64_t start = now_ns();
    for (int spin = 0; !woken && spin < DETENT_SLOT_SPIN; spin++) {
        if (load(&last->reply) == sequence) return true;
        relax();
    }
    for (;;) {
        uint32_t reply = load(&last->reply);
        if (reply == sequence) return true;
        for (intptr_t k = 0; k < count; k++) {
            if (load(&watched[k]->shared->state) != DETENT_SLOT_READY) return false;
        }
        int64_t left = limit_ns - (now_ns() - start);
        if (left <= 0) return false;
        // Said before looking again: the sandbox wakes the reply's sleepers only then.
        __atomic_store_n(&last->waiting, 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&last->reply, __ATOMIC_SEQ_CST) == reply) wait_while(&last->reply, reply, left);
        __atomic_store_n(&last->waiting, 0, __ATOMIC_RELAXED);
    }
}

/// Makes request `command`, then waits for its answer at most `limit_ns`. False when the slot
/// is gone or the time is up.
static bool ask(DetentSlotProxy *proxy, uint32_t command, int64_t limit_ns) {
    DetentSlotShared *shared = proxy->shared;
    shared->command = command;
    shared->follows = 0, shared->chain_next = 0;
    uint32_t sequence = ++proxy->sequence;
    store(&shared->request, sequence);
    bool woken = ring(proxy->group);
    return await_reply(&proxy, 1, shared, sequence, limit_ns, woken);
}

/// A run's request in the slot's block: the controls, the input, the side signal and the MIDI
/// staged for it, its length (the request itself is made by whoever calls this).
static void stage(DetentSlotProxy *proxy, const float *controls, const float *const *inputs, intptr_t channels, intptr_t frames) {
    DetentSlotShared *shared = proxy->shared;
    const DetentSlotShared *layout = &proxy->layout;
    uint8_t *base = block(shared);
    memcpy(base + layout->off_controls, controls, layout->controls * sizeof(float));
    if (inputs) {
        float *in = (float *)(base + layout->off_inputs);
        for (intptr_t c = 0; c < channels; c++) memcpy(in + c * layout->max_frames, inputs[c], (size_t)frames * sizeof(float));
    }
    shared->has_side = proxy->side_channels > 0;
    if (proxy->side_channels > 0) {
        float *side = (float *)(base + layout->off_side);
        for (intptr_t c = 0; c < channels; c++) {
            const float *from = proxy->side[c < (intptr_t)proxy->side_channels ? c : proxy->side_channels - 1];
            memcpy(side + c * layout->max_frames, from, (size_t)frames * sizeof(float));
        }
        proxy->side_channels = 0;
    }
    shared->begin_events = proxy->staged_begin;
    shared->events = proxy->staged_events;
    shared->event_bytes = proxy->staged_bytes;
    proxy->staged_begin = 0, proxy->staged_events = 0, proxy->staged_bytes = 0;
    shared->frames = (uint32_t)frames;
}

/// The longest a run of `frames` may take.
static int64_t run_limit(const DetentSlotProxy *proxy, intptr_t frames) {
    int64_t limit = proxy->frame_ns * frames;
    return limit > proxy->deadline_ns ? limit : proxy->deadline_ns;
}

/// What the slot reported after a run: its latency, bounded by the history it delays from, and
/// whether its plug-in moved one of its own parameters (the host's supervisor is woken).
static void take_latency(DetentSlotProxy *proxy) {
    uint32_t latency = proxy->shared->latency;
    proxy->history_frames = latency <= proxy->history_capacity ? latency : proxy->history_capacity;
    uint32_t own = __atomic_load_n(&proxy->shared->own, __ATOMIC_ACQUIRE);
    if (own != proxy->own_seen) {
        proxy->own_seen = own;
        detent_own_change_noted();
    }
}

/// The input's last frames, oldest first, for a pass-through that starts any run from now.
static void remember(DetentSlotProxy *proxy, const float *const *inputs, intptr_t channels, intptr_t frames) {
    uint32_t capacity = proxy->history_capacity;
    if (capacity == 0) return;
    for (intptr_t c = 0; c < channels; c++) {
        float *history = proxy->history + (size_t)c * capacity;
        if (frames >= (intptr_t)capacity) {
            memcpy(history, inputs[c] + frames - capacity, capacity * sizeof(float));
        } else {
            memmove(history, history + frames, (capacity - (size_t)frames) * sizeof(float));
            memcpy(history + capacity - frames, inputs[c], (size_t)frames * sizeof(float));
        }
    }
}

/// Frame `i` of channel `c` delayed by `delay` frames: from this run's input, or the history.
static inline float delayed(const DetentSlotProxy *proxy, const float *input, uint32_t c, intptr_t i, uint32_t delay) {
    if (i >= (intptr_t)delay) return input[i - delay];
    return proxy->history[(size_t)c * proxy->history_capacity + (proxy->history_capacity - delay + (uint32_t)i)];
}

void detent_slot_proxy_run(void *context, const float *controls, const float *const *inputs, float *const *outputs,
                           intptr_t channels, intptr_t frames) {
    DetentSlotProxy *proxy = context;
    DetentSlotShared *shared = proxy->shared;
    const DetentSlotShared *layout = &proxy->layout;
    uint8_t *base = block(shared);
    if (channels > (intptr_t)layout->channels) channels = layout->channels;
    if (frames > (intptr_t)layout->max_frames) frames = layout->max_frames;
    uint32_t state = load(&shared->state);
    // Still making its plug-in: the input passes through, and nothing waits for it.
    bool starting = !proxy->failed && !proxy->started && state == DETENT_SLOT_STARTING;
    if (!starting && !proxy->started && state == DETENT_SLOT_READY) proxy->started = 1, proxy->fade_done = 0;
    if (!starting && !proxy->failed && state != DETENT_SLOT_READY) fail(proxy);
    if (!starting && !proxy->failed) {
        stage(proxy, controls, inputs, channels, frames);
        if (ask(proxy, DETENT_SLOT_RUN, run_limit(proxy, frames))) {
            const float *out = (const float *)(base + layout->off_outputs);
            for (intptr_t c = 0; c < channels; c++) memcpy(outputs[c], out + c * layout->max_frames, (size_t)frames * sizeof(float));
            take_latency(proxy);
        } else {
            fail(proxy);
        }
    }
    uint32_t delay = proxy->history_frames;
    if (proxy->failed || starting) {
        // As a bypass: the input, delayed by the latency the slot last reported.
        if (proxy->failed) proxy->failures++;
        for (intptr_t c = 0; c < channels; c++) {
            for (intptr_t i = 0; i < frames; i++) outputs[c][i] = delayed(proxy, inputs[c], (uint32_t)c, i, delay);
        }
    } else if (proxy->fade_done < proxy->fade_frames) {
        // Just ready: from the input passed through to the slot's sound, on a straight ramp.
        uint32_t done = proxy->fade_done, length = proxy->fade_frames;
        for (intptr_t c = 0; c < channels; c++) {
            for (intptr_t i = 0; i < frames && done + (uint32_t)i < length; i++) {
                float g = (float)(done + (uint32_t)i) / (float)length;
                float dry = delayed(proxy, inputs[c], (uint32_t)c, i, delay);
                outputs[c][i] = dry + g * (outputs[c][i] - dry);
            }
        }
        proxy->fade_done = (uint64_t)done + (uint64_t)frames >= length ? length : done + (uint32_t)frames;
    }
    remember(proxy, inputs, channels, frames);
}

// MARK: Chained requests

/// The engine's limits for what a kernel's output may hold and what a kernel is given
/// (`RenderState.outputLimit`, `LowpassGainKernel.inputLimit`): the same numbers, so a run
/// chained in the sandbox sounds as the slots run one by one.
#define OUTPUT_LIMIT 1000000.0f
#define INPUT_LIMIT 65536.0f

/// True when any of `frames` samples of `channels` channels (`stride` apart) is not finite or
/// beyond ±OUTPUT_LIMIT: the engine's guard (`SampleScans.holdsAbsurd`).
static bool holds_absurd(const float *samples, uint32_t channels, uint32_t stride, uint32_t frames) {
    for (uint32_t c = 0; c < channels; c++) {
        const float *x = samples + (size_t)c * stride;
        for (uint32_t i = 0; i < frames; i++) {
            if (!(__builtin_fabsf(x[i]) <= OUTPUT_LIMIT)) return true;
        }
    }
    return false;
}

/// A sample as a kernel is given it: non-finite made 0, limited to ±INPUT_LIMIT.
static inline float as_input(float x) {
    if (!__builtin_isfinite(x)) return 0;
    return x > INPUT_LIMIT ? INPUT_LIMIT : (x < -INPUT_LIMIT ? -INPUT_LIMIT : x);
}

/// A sample as the engine writes a kernel's output on: a denormal made 0 (told by its bits:
/// with denormals-are-zero it compares equal to 0). True when it was one.
static inline bool is_denormal(float x) {
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits & 0x7F800000u) == 0 && (bits & 0x007FFFFFu) != 0;
}

/// The one place that hands a slot's output on as the engine does between slots: `out` (or,
/// when it holds an absurd sample, the slot's own input `in`) into `next`, denormals made 0
/// and every sample as a kernel is given it. Returns the denormals made 0; `*absurd` says
/// whether the input stood in for the output.
static uint32_t hand_on(const float *out, const float *in, float *next, uint32_t channels, uint32_t stride, uint32_t frames,
                        bool *absurd) {
    *absurd = holds_absurd(out, channels, stride, frames);
    const float *from = *absurd ? in : out;
    uint32_t flushed = 0;
    for (uint32_t c = 0; c < channels; c++) {
        const float *x = from + (size_t)c * stride;
        float *y = next + (size_t)c * stride;
        for (uint32_t i = 0; i < frames; i++) {
            float v = x[i];
            if (is_denormal(v)) v = 0, flushed++;
            y[i] = as_input(v);
        }
    }
    return flushed;
}

/// True when `proxy` can take part in a chained request now: ready and playing (not starting,
/// fading in or failed), given no side signal, known to its sandbox.
static bool chainable(const DetentSlotProxy *proxy, const DetentSlotGroup *group) {
    return proxy->group == group && !proxy->failed && proxy->started && proxy->fade_done >= proxy->fade_frames &&
           proxy->side_channels == 0 && proxy->member >= 0 && load(&proxy->shared->state) == DETENT_SLOT_READY;
}

/// A chained request failed: the first slot that did not answer is the culprit (marked LATE,
/// so its process is killed for it); the others go down with their sandbox, passing their
/// input through from now on as it does.
static void fail_chain(DetentSlotProxy *const *proxies, const uint32_t *sequences, intptr_t count) {
    intptr_t culprit = count - 1;
    for (intptr_t k = 0; k < count; k++) {
        if (load(&proxies[k]->shared->reply) != sequences[k]) {
            culprit = k;
            break;
        }
    }
    fail(proxies[culprit]);
    for (intptr_t k = 0; k < count; k++) {
        if (proxies[k]->failed) continue;
        proxies[k]->failed = 1;
        __atomic_add_fetch(&proxies[k]->health, 1, __ATOMIC_RELEASE);
    }
}

intptr_t detent_slot_proxies_run(void *const *contexts, const float *const *controls, intptr_t count, const float *const *inputs,
                                 float *const *outputs, intptr_t channels, intptr_t frames, int64_t *reports) {
    if (count < 2 || count > DETENT_SLOT_CHAIN || frames <= 0) return 0;
    DetentSlotProxy *proxies[DETENT_SLOT_CHAIN];
    DetentSlotGroup *group = ((DetentSlotProxy *)contexts[0])->group;
    for (intptr_t k = 0; k < count; k++) {
        proxies[k] = contexts[k];
        const DetentSlotShared *layout = &proxies[k]->layout;
        if (!chainable(proxies[k], group) || channels > (intptr_t)layout->channels || frames > (intptr_t)layout->max_frames) return 0;
    }
    // Each block's request, then the requests themselves, the first's last: the sandbox
    // skips a slot that follows another until the one before it has run.
    int64_t limit = 0;
    for (intptr_t k = 0; k < count; k++) {
        DetentSlotShared *shared = proxies[k]->shared;
        stage(proxies[k], controls[k], k == 0 ? inputs : NULL, channels, frames);
        shared->command = DETENT_SLOT_RUN;
        shared->follows = k > 0;
        shared->chain_next = k + 1 < count ? (uint32_t)proxies[k + 1]->member + 1 : 0;
        shared->absurd = 0, shared->flushed = 0;
        limit += run_limit(proxies[k], frames);
    }
    uint32_t sequences[DETENT_SLOT_CHAIN];
    for (intptr_t k = count - 1; k >= 0; k--) {
        sequences[k] = ++proxies[k]->sequence;
        store(&proxies[k]->shared->request, sequences[k]);
    }
    bool woken = ring(group);
    if (!await_reply(proxies, count, proxies[count - 1]->shared, sequences[count - 1], limit, woken)) {
        fail_chain(proxies, sequences, count);
        return -1;
    }
    // What the sandbox handed on, as the engine would have: each slot's absurd frames (its own
    // word: only 0 or not), the denormals made 0 (bounded by the samples handed on).
    int64_t flushed = 0;
    for (intptr_t k = 0; k < count; k++) {
        DetentSlotProxy *proxy = proxies[k];
        DetentSlotShared *shared = proxy->shared;
        const DetentSlotShared *layout = &proxy->layout;
        reports[k] = k + 1 < count && shared->absurd ? frames : 0;
        uint32_t made = shared->flushed;
        if (k + 1 < count) flushed += made <= (uint64_t)channels * frames ? made : channels * frames;
        // Each slot's input, for the history a pass-through starts from: the first's given,
        // the others' as the sandbox handed them on.
        const float *in[DETENT_SLOT_CHANNELS];
        for (intptr_t c = 0; c < channels; c++) {
            in[c] = k == 0 ? inputs[c] : (const float *)(block(shared) + layout->off_inputs) + (size_t)c * layout->max_frames;
        }
        remember(proxy, in, channels, frames);
        take_latency(proxy);
    }
    reports[count] = flushed;
    // The last slot's output, guarded here as the engine guards any slot's: absurd, its input
    // (as the sandbox handed it on, made a kernel's input again) stands in for it.
    DetentSlotProxy *last = proxies[count - 1];
    const DetentSlotShared *layout = &last->layout;
    const float *out = (const float *)(block(last->shared) + layout->off_outputs);
    const float *in = (const float *)(block(last->shared) + layout->off_inputs);
    bool absurd = holds_absurd(out, (uint32_t)channels, layout->max_frames, (uint32_t)frames);
    for (intptr_t c = 0; c < channels; c++) {
        const float *from = (absurd ? in : out) + (size_t)c * layout->max_frames;
        if (!absurd) {
            memcpy(outputs[c], from, (size_t)frames * sizeof(float));
            continue;
        }
        for (intptr_t i = 0; i < frames; i++) outputs[c][i] = as_input(from[i]);
    }
    reports[count - 1] = absurd ? frames : 0;
    return 1;
}

void detent_slot_proxy_reset(void *context) {
    DetentSlotProxy *proxy = context;
    if (proxy->failed || load(&proxy->shared->state) != DETENT_SLOT_READY) return;
    if (!ask(proxy, DETENT_SLOT_RESET, 2000000000)) fail(proxy);
}

void detent_slot_proxy_begin_events(void *context) {
    DetentSlotProxy *proxy = context;
    proxy->staged_begin = 1;
    proxy->staged_events = 0;
    proxy->staged_bytes = 0;
}

/// Appends one MIDI message to an event area (`count` messages and `used` bytes in it so far);
/// false, and nothing written, when it is full. The one way both directions fill one.
static bool put_event(uint8_t *area, uint32_t *count, uint32_t *used, uint32_t frame, const uint8_t *bytes, uint32_t size) {
    if (*count >= DETENT_SLOT_EVENTS || *used + size > DETENT_SLOT_EVENT_BYTES) return false;
    DetentSlotEvent *events = (DetentSlotEvent *)area;
    uint8_t *data = area + align64(DETENT_SLOT_EVENTS * sizeof(DetentSlotEvent));
    events[*count] = (DetentSlotEvent){frame, size, *used};
    memcpy(data + *used, bytes, size);
    *count += 1;
    *used += size;
    return true;
}

bool detent_slot_proxy_add_event(void *context, uint32_t frame, const uint8_t *bytes, uint32_t size) {
    DetentSlotProxy *proxy = context;
    DetentSlotShared *shared = proxy->shared;
    return put_event(block(shared) + proxy->layout.off_events, &proxy->staged_events, &proxy->staged_bytes, frame, bytes, size);
}

void detent_slot_proxy_transport(void *context, int64_t frame, float speed, int64_t bar, float barBeat, double beat,
                                 int32_t beatUnit, float beatsPerBar, float beatsPerMinute) {
    DetentSlotProxy *proxy = context;
    DetentSlotShared *shared = proxy->shared;
    shared->transport_frame = frame;
    shared->transport_speed = speed;
    shared->transport_bar = bar;
    shared->transport_bar_beat = barBeat;
    shared->transport_beat = beat;
    shared->transport_beat_unit = beatUnit;
    shared->transport_beats_per_bar = beatsPerBar;
    shared->transport_bpm = beatsPerMinute;
    shared->has_transport = 1;
}

void detent_slot_proxy_side(void *context, const float *const *inputs, intptr_t channels) {
    DetentSlotProxy *proxy = context;
    if (channels > DETENT_SLOT_CHANNELS) channels = DETENT_SLOT_CHANNELS;
    for (intptr_t c = 0; c < channels; c++) proxy->side[c] = inputs[c];
    proxy->side_channels = (uint32_t)channels;
}

void detent_slot_proxy_drain(void *context, uint32_t frames, DetentSlotMIDISink sink, void *target) {
    DetentSlotProxy *proxy = context;
    DetentSlotShared *shared = proxy->shared;
    if (proxy->failed || load(&shared->state) != DETENT_SLOT_READY) return;
    shared->drain_frames = frames;
    if (!ask(proxy, DETENT_SLOT_DRAIN, proxy->deadline_ns)) {
        fail(proxy);
        return;
    }
    uint8_t *area = block(shared) + proxy->layout.off_midi_out;
    const DetentSlotEvent *events = (const DetentSlotEvent *)area;
    const uint8_t *data = area + align64(DETENT_SLOT_EVENTS * sizeof(DetentSlotEvent));
    // Counts, offsets and sizes are the slot's word: each is checked against the area (in 64
    // bits, so no sum wraps), and read once.
    uint32_t count = load(&shared->midi_out);
    for (uint32_t i = 0; i < count && i < DETENT_SLOT_EVENTS; i++) {
        DetentSlotEvent event;
        memcpy(&event, &events[i], sizeof event);
        if ((uint64_t)event.offset + event.size <= DETENT_SLOT_EVENT_BYTES) sink(target, event.frame, data + event.offset, event.size);
    }
}

void detent_slot_proxy_revive(DetentSlotProxy *proxy) {
    proxy->sequence = load(&proxy->shared->request);
    proxy->side_channels = 0;
    proxy->staged_begin = 0, proxy->staged_events = 0, proxy->staged_bytes = 0;
    __atomic_store_n(&proxy->failed, 0, __ATOMIC_RELEASE);
}

void detent_slot_proxy_renew(DetentSlotProxy *proxy) {
    detent_slot_proxy_revive(proxy);
    memset(proxy->history, 0, (size_t)proxy->history_capacity * proxy->layout.channels * sizeof(float));
    proxy->history_frames = 0;
    proxy->failures = 0;
    proxy->started = 1;
    proxy->fade_done = proxy->fade_frames;
}

// MARK: The slot's half

/// Where the slot's kernel writes its MIDI during a DRAIN: into the shared block.
static void keep_midi(void *target, uint32_t frame, const uint8_t *bytes, uint32_t size) {
    DetentSlotShared *shared = target;
    (void)put_event(block(shared) + shared->off_midi_out, &shared->midi_out, &shared->midi_out_bytes, frame, bytes, size);
}

static void run(DetentSlotShared *shared, const DetentSlotKernel *kernel) {
    uint8_t *base = block(shared);
    uint32_t channels = shared->channels, max = shared->max_frames;
    const float *in[DETENT_SLOT_CHANNELS];
    float *out[DETENT_SLOT_CHANNELS];
    for (uint32_t c = 0; c < channels && c < DETENT_SLOT_CHANNELS; c++) {
        in[c] = (const float *)(base + shared->off_inputs) + (size_t)c * max;
        out[c] = (float *)(base + shared->off_outputs) + (size_t)c * max;
    }
    if (kernel->begin_events && kernel->add_event && (shared->begin_events || shared->events > 0)) {
        if (shared->begin_events) kernel->begin_events(kernel->context);
        uint8_t *area = base + shared->off_events;
        const DetentSlotEvent *events = (const DetentSlotEvent *)area;
        const uint8_t *data = area + align64(DETENT_SLOT_EVENTS * sizeof(DetentSlotEvent));
        for (uint32_t i = 0; i < shared->events && i < DETENT_SLOT_EVENTS; i++) {
            if (events[i].offset + events[i].size <= DETENT_SLOT_EVENT_BYTES) {
                kernel->add_event(kernel->context, events[i].frame, data + events[i].offset, events[i].size);
            }
        }
    }
    if (shared->has_transport) {
        shared->has_transport = 0;
        if (kernel->transport) {
            kernel->transport(kernel->context, shared->transport_frame, shared->transport_speed, shared->transport_bar,
                              shared->transport_bar_beat, shared->transport_beat, shared->transport_beat_unit,
                              shared->transport_beats_per_bar, shared->transport_bpm);
        }
    }
    if (shared->has_side && kernel->side) {
        const float *side[DETENT_SLOT_CHANNELS];
        for (uint32_t c = 0; c < channels && c < DETENT_SLOT_CHANNELS; c++) side[c] = (const float *)(base + shared->off_side) + (size_t)c * max;
        kernel->side(kernel->context, side, channels);
    }
    kernel->run(kernel->context, (const float *)(base + shared->off_controls), in, out, channels, shared->frames);
}

void detent_slot_member_open(DetentSlotGroup *group, DetentSlotMember *member) {
    member->seen = load(&member->shared->request);
    detent_slot_set_state(member->shared, DETENT_SLOT_READY);
    store(&member->phase, DETENT_SLOT_MEMBER_ACTIVE);
    __atomic_add_fetch(&group->bell, 1, __ATOMIC_SEQ_CST);
    wake(&group->bell);
}

bool detent_slot_member_retire(DetentSlotGroup *group, DetentSlotMember *member, int64_t timeout_ns) {
    uint32_t phase = load(&member->phase);
    if (phase == DETENT_SLOT_MEMBER_EMPTY || phase == DETENT_SLOT_MEMBER_RETIRED) return true;
    store(&member->phase, DETENT_SLOT_MEMBER_RETIRING);
    __atomic_add_fetch(&group->bell, 1, __ATOMIC_SEQ_CST);
    wake(&group->bell);
    int64_t end = now_ns() + timeout_ns;
    while ((phase = load(&member->phase)) == DETENT_SLOT_MEMBER_RETIRING) {
        int64_t left = end - now_ns();
        if (left <= 0) return false;
        wait_while(&member->phase, phase, left);
    }
    return true;
}

void detent_slot_group_quit(DetentSlotGroup *group) {
    store(&group->quit, 1);
    __atomic_add_fetch(&group->bell, 1, __ATOMIC_SEQ_CST);
    wake(&group->bell);
}

/// Answers one request of `shared`'s.
static void answer(DetentSlotShared *shared, const DetentSlotKernel *kernel) {
    switch (shared->command) {
    case DETENT_SLOT_RUN:
        run(shared, kernel);
        break;
    case DETENT_SLOT_RESET:
        if (kernel->reset) kernel->reset(kernel->context);
        break;
    case DETENT_SLOT_DRAIN:
        shared->midi_out = 0, shared->midi_out_bytes = 0;
        if (kernel->drain) kernel->drain(kernel->context, shared->drain_frames, keep_midi, shared);
        break;
    default:
        break;
    }
}

/// Answers member `m`'s request `request`, and says so.
static void serve_one(DetentSlotGroup *group, DetentSlotMember *member, uint32_t m, uint32_t request) {
    DetentSlotShared *shared = member->shared;
    store(&group->current, m + 1);
    answer(shared, &member->kernel);
    store(&group->current, 0);
    __atomic_store_n(&shared->reply, request, __ATOMIC_SEQ_CST);
    // The host looks for the answer while it expects it soon, and sleeps only after: woken
    // only then (a wake nobody waits for is a system call for nothing).
    if (__atomic_load_n(&shared->waiting, __ATOMIC_SEQ_CST)) wake(&shared->reply);
}

/// Serves member `m`'s request, then each slot chained after it on the same request: its
/// input handed on from the output of the one before (`hand_on`), as the engine would. A link
/// that names no member waiting to follow ends the chain (the host, waiting for the last,
/// then gives up on the sandbox).
static void serve_chain(DetentSlotGroup *group, DetentSlotMember *members, uint32_t capacity, uint32_t m, uint32_t request) {
    serve_one(group, &members[m], m, request);
    for (uint32_t hops = 0; hops < capacity; hops++) {
        DetentSlotShared *from = members[m].shared;
        uint32_t next = from->chain_next;
        if (next == 0 || next > capacity || from->command != DETENT_SLOT_RUN) return;
        DetentSlotMember *member = &members[next - 1];
        if (load(&member->phase) != DETENT_SLOT_MEMBER_ACTIVE) return;
        DetentSlotShared *to = member->shared;
        uint32_t asked = load(&to->request);
        if (asked == member->seen || !to->follows || to->command != DETENT_SLOT_RUN) return;
        member->seen = asked;
        if (load(&to->state) == DETENT_SLOT_QUIT) return;
        uint32_t channels = from->channels < to->channels ? from->channels : to->channels;
        uint32_t frames = from->frames;
        if (channels > DETENT_SLOT_CHANNELS || frames > from->max_frames || frames > to->max_frames || from->max_frames != to->max_frames) return;
        bool absurd = false;
        to->frames = frames;
        from->flushed = hand_on((const float *)(block(from) + from->off_outputs), (const float *)(block(from) + from->off_inputs),
                                (float *)(block(to) + to->off_inputs), channels, from->max_frames, frames, &absurd);
        from->absurd = absurd;
        m = next - 1;
        serve_one(group, member, m, asked);
    }
}

void detent_slot_group_serve(DetentSlotGroup *group, DetentSlotMember *members, uint32_t capacity) {
    // The arithmetic the engine runs a kernel with in process: flush-to-zero, denormals as zero.
    (void)detent_denormals_off();
    for (;;) {
        if (load(&group->quit)) return;
        // Read before looking: a request made after this moves the bell, and the sleep below
        // then returns at once.
        uint32_t bell = __atomic_load_n(&group->bell, __ATOMIC_SEQ_CST);
        bool served = false;
        for (uint32_t m = 0; m < capacity; m++) {
            DetentSlotMember *member = &members[m];
            uint32_t phase = load(&member->phase);
            if (phase == DETENT_SLOT_MEMBER_RETIRING) {
                store(&member->phase, DETENT_SLOT_MEMBER_RETIRED);
                wake(&member->phase);
                continue;
            }
            if (phase != DETENT_SLOT_MEMBER_ACTIVE) continue;
            DetentSlotShared *shared = member->shared;
            uint32_t request = load(&shared->request);
            if (request == member->seen) continue;
            // Run after the slot before it, on that slot's request.
            if (shared->follows) continue;
            member->seen = request;
            if (load(&shared->state) == DETENT_SLOT_QUIT) continue;
            serve_chain(group, members, capacity, m, request);
            served = true;
        }
        if (served) continue;
        __atomic_store_n(&group->sleeping, 1, __ATOMIC_SEQ_CST);
        wait_while(&group->bell, bell, -1);
        __atomic_store_n(&group->sleeping, 0, __ATOMIC_SEQ_CST);
    }
}
