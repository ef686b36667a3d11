#ifndef DETENT_SLOT_H
#define DETENT_SLOT_H

// A plug-in slot run in a process of its own ("isolated"): what crosses between the host's
// audio thread and the slot's process, in one block of shared memory, and the two halves
// that use it.
//
// The host's half is an `ExternalKernel` like any other (the proxy: `detent_slot_proxy_*`).
// Its `run` copies the control values and the input into the shared block, bumps
// `request` and rings its sandbox's bell (FUTEX_WAKE, when the sandbox sleeps), then looks for
// the answer a moment and waits on `reply` (FUTEX_WAIT) until the slot has run or the deadline
// passes, and copies the output back. Those two futex calls are
// the only system calls the audio thread makes for an isolated slot. When the slot's process
// has died, or misses the deadline, the proxy marks the slot failed and from then on passes
// its input through, delayed by the slot's latency as a bypass does, until the host starts a
// new process (`restart`) and clears the mark; the host's monitor thread kills what is left.
// While the process is still STARTING (making its plug-in, which may take a while or hang),
// the proxy passes the input through too, without waiting for it; once the process says
// READY the slot fades in from that over `fade_frames`.
//
// The slot's half is a sandbox: one process serving one slot or several (`--isolate=together`,
// named groups). Its serving thread (`detent_slot_group_serve`) sleeps on the group's `bell`,
// which the host rings after every request to any of its slots; it runs the real kernel of
// each slot asked on that slot's shared buffers and answers on the slot's `reply`, waking the
// host only when it sleeps on it. Consecutive slots of one sandbox, each fed only by the one
// before it, are run on one request (`detent_slot_proxies_run`): the sandbox runs the first,
// hands its output to the next as the engine would (the guard against absurd samples, denormals
// made 0, the input limit), and so on, and answers once: one wake-up a period for the run, not
// one per slot. Nothing here allocates or locks.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Where a slot is.
enum {
    DETENT_SLOT_STARTING = 0, // the process is being made, or making its kernel
    DETENT_SLOT_READY = 1,    // serving
    DETENT_SLOT_LATE = 2,     // it missed a deadline: to be killed
    DETENT_SLOT_DEAD = 3,     // its process ended
    DETENT_SLOT_QUIT = 4,     // asked to end
};

/// What a request asks.
enum {
    DETENT_SLOT_RUN = 1,
    DETENT_SLOT_RESET = 2,
    DETENT_SLOT_DRAIN = 3,
};

/// The most channels, MIDI messages in a request and their bytes, MIDI messages out and
/// their bytes, that a slot carries.
#define DETENT_SLOT_CHANNELS 64
#define DETENT_SLOT_EVENTS 1024
#define DETENT_SLOT_EVENT_BYTES 65536

/// One MIDI message in the shared block: at `frame`, `size` bytes at `offset` in the bytes.
typedef struct {
    uint32_t frame;
    uint32_t size;
    uint32_t offset;
} DetentSlotEvent;

/// The latest value a slot's plug-in gave one of its own parameters (a linked control, its
/// editor), and how many it has given: the host takes a row whose count moved.
typedef struct {
    double value;
    uint32_t count;
    uint32_t unused;
} DetentSlotOwn;

/// The head of the shared block; the buffers follow at the offsets given. The words the two
/// sides wait on are touched only with atomic operations (in Slot.c).
typedef struct {
    uint32_t request;       // futex: the host's request count
    uint32_t reply;         // futex: the last request the slot answered
    uint32_t state;         // futex: DETENT_SLOT_*
    uint32_t command;       // DETENT_SLOT_RUN …
    uint32_t channels;
    uint32_t max_frames;
    uint32_t controls;      // the processor's rows
    uint32_t outputs;       // its read-only output values
    uint32_t frames;        // of this run
    uint32_t has_side;      // this run's side-chain signal is in the side buffers
    uint32_t begin_events;  // this run starts a new list of MIDI messages
    uint32_t events;        // MIDI messages for this run (after begin_events, or added to the list)
    uint32_t event_bytes;
    uint32_t midi_out;      // MIDI messages the slot wrote (a DRAIN's answer)
    uint32_t midi_out_bytes;
    uint32_t latency;       // the slot's latency, as its kernel last reported it
    uint32_t has_transport; // the transport below is new for this run
    int32_t transport_beat_unit;
    int64_t transport_frame;
    int64_t transport_bar;
    double transport_beat;
    float transport_speed;
    float transport_bar_beat;
    float transport_beats_per_bar;
    float transport_bpm;
    uint32_t drain_frames;   // a DRAIN's cycle length
    uint32_t waiting;        // the host sleeps on `reply` (the sandbox wakes it only then)
    uint32_t pid;            // the slot's process
    uint32_t follows;        // this run's input is the output of the slot before it in a chained request
    uint32_t chain_next;     // the slot served after this one on the same request (member number plus one; 0: none)
    uint32_t absurd;         // the sandbox passed this slot's input on for its run: its output was absurd
    uint32_t flushed;        // denormal samples the sandbox made 0 handing this slot's output on
    uint32_t own;            // bumped by the sandbox each time it writes a value its plug-in gave its own parameter
    uint64_t generation;     // bumped by each process that serves it
    uint64_t off_controls;   // float × controls
    uint64_t off_inputs;     // float × channels × max_frames, channel after channel
    uint64_t off_outputs;    // the same
    uint64_t off_side;       // the same
    uint64_t off_values;     // float × outputs, written by the slot's reporter
    uint64_t off_own;        // DetentSlotOwn × controls, written by the slot's reporter
    uint64_t off_events;     // DetentSlotEvent × DETENT_SLOT_EVENTS, then the bytes
    uint64_t off_midi_out;   // the same, for the MIDI the slot wrote
    uint64_t size;           // of the whole block
} DetentSlotShared;

/// The words a sandbox's process and the host share, in a block of their own beside the
/// slots' blocks.
typedef struct {
    uint32_t bell;     // futex: bumped by the host after each request to any of the sandbox's slots
    uint32_t sleeping; // the serving thread sleeps on `bell`: the host wakes it only then
    uint32_t current;  // the slot being served (its member number plus one; 0: none), for a fault's culprit
    uint32_t making;   // the slot whose plug-in is being made (the same numbering): a hang's culprit
    uint32_t quit;     // the host lets the process go
    uint32_t watched;  // bumped by the host each time it reads a slot's output values
} DetentSlotGroup;

/// FUTEX_WAKE and a bounded FUTEX_WAIT on a shared word: the only system calls the proxy
/// makes on the audio thread (allowed by these names under RealtimeSanitizer).
void detent_slot_futex_wake(uint32_t *_Nonnull word);
void detent_slot_futex_wait(uint32_t *_Nonnull word, uint32_t value, int64_t timeout_ns);

/// Fills `shared`'s sizes and offsets for the shape given; returns the bytes the block needs.
size_t detent_slot_layout(DetentSlotShared *_Nonnull shared, uint32_t channels, uint32_t max_frames, uint32_t controls,
                          uint32_t outputs);

/// The state word, read or set atomically (either side, any thread); setting wakes its waiters.
uint32_t detent_slot_state(const DetentSlotShared *_Nonnull shared);
void detent_slot_set_state(DetentSlotShared *_Nonnull shared, uint32_t state);
/// Waits up to `timeout_ns` for the state word to move from `from` (not on an audio thread).
void detent_slot_wait_state(DetentSlotShared *_Nonnull shared, uint32_t from, int64_t timeout_ns);
/// A value the plug-in gave its own parameter `row` (the sandbox's reporter): kept in the block
/// for the host, whose audio thread sees the block's `own` move at the next run and wakes the
/// host's supervisor (``detent_own_change_noted``).
void detent_slot_own_write(DetentSlotShared *_Nonnull shared, uint32_t row, double value);
/// The rows of the host's `layout` whose own value moved since `seen` (the counts the host last
/// took, `layout->controls` of them, updated), up to `capacity`, with their values; returns how
/// many. Off the audio thread.
uint32_t detent_slot_own_take(const DetentSlotShared *_Nonnull shared, const DetentSlotShared *_Nonnull layout,
                              uint32_t *_Nonnull seen, uint32_t *_Nonnull rows, double *_Nonnull values, uint32_t capacity);

/// A shared word, read atomically.
uint32_t detent_slot_load(const uint32_t *_Nonnull word);
/// A shared word, bumped atomically.
void detent_slot_bump(uint32_t *_Nonnull word);
/// Wakes whoever waits on the reply: a host whose slot is gone stops waiting at once.
void detent_slot_wake_reply(DetentSlotShared *_Nonnull shared);

/// A new anonymous shared-memory file of `size` bytes, close-on-exec (memfd_create and
/// ftruncate), sealed at that size: the slot's process, which holds it, can neither shrink it
/// (the host's next touch of the lost pages would be a SIGBUS) nor grow it. Returns its
/// descriptor, or -1 with errno set.
int detent_slot_memory(size_t size);
/// The block in `fd` mapped shared, read and write (mmap); NULL with errno set on failure.
DetentSlotShared *_Nullable detent_slot_map(int fd, size_t size);
void detent_slot_unmap(DetentSlotShared *_Nonnull shared, size_t size);

// MARK: The host's half

/// The proxy's own memory (the context of its `ExternalKernel`), prepared by the host.
///
/// The host reads the block's shape (channels, frames, offsets) from `layout`, its own copy
/// made before the slot's process existed, never from the block: the process may write
/// anything there, and an offset it chose would have the host copy to or from any address.
typedef struct {
    DetentSlotShared *_Nonnull shared;
    DetentSlotGroup *_Nonnull group; // the sandbox's words: the bell rung after each request
    DetentSlotShared layout;  // the block's head as the host laid it out
    uint32_t sequence;        // the last request made
    uint32_t failed;          // the audio thread saw the slot fail: pass the input through
    int64_t deadline_ns;      // the longest a run may take: at least this,
    int64_t frame_ns;         // and this much per frame of the run
    uint32_t side_channels;   // a side signal given for the next run
    const float *_Nullable side[DETENT_SLOT_CHANNELS];
    uint32_t staged_begin;    // MIDI staged for the next run
    uint32_t staged_events;
    uint32_t staged_bytes;
    float *_Nonnull history;  // the input's last `history_frames` frames per channel, oldest first
    uint32_t history_frames;  // its length: the latency a pass-through delays by (at most its capacity)
    uint32_t history_capacity;
    uint32_t failures;        // runs answered by passing through, for the host to see
    uint32_t health;          // bumped when the audio thread marks a failure (host reads it)
    uint32_t started;         // the audio thread has seen the process ready
    uint32_t fade_frames;     // how long the slot fades in from passing its input through once ready
    uint32_t fade_done;       // frames of that fade run so far
    int32_t member;           // its number in its sandbox (−1 until the sandbox has it)
    uint32_t own_seen;        // the block's `own` as the audio thread last saw it: a move wakes the host
} DetentSlotProxy;

/// The `ExternalKernel` functions over a proxy (see ExternalKernel.swift for what each does).
void detent_slot_proxy_run(void *_Nullable context, const float *_Nonnull controls,
                           const float *_Nonnull const *_Nonnull inputs, float *_Nonnull const *_Nonnull outputs,
                           intptr_t channels, intptr_t frames);
void detent_slot_proxy_reset(void *_Nullable context);
void detent_slot_proxy_begin_events(void *_Nullable context);
bool detent_slot_proxy_add_event(void *_Nullable context, uint32_t frame, const uint8_t *_Nonnull bytes, uint32_t size);
void detent_slot_proxy_transport(void *_Nullable context, int64_t frame, float speed, int64_t bar, float barBeat,
                                 double beat, int32_t beatUnit, float beatsPerBar, float beatsPerMinute);
void detent_slot_proxy_side(void *_Nullable context, const float *_Nonnull const *_Nonnull inputs, intptr_t channels);
typedef void (*DetentSlotMIDISink)(void *_Nullable target, uint32_t frame, const uint8_t *_Nonnull bytes, uint32_t size);
void detent_slot_proxy_drain(void *_Nullable context, uint32_t frames, DetentSlotMIDISink _Nonnull sink,
                             void *_Nullable target);

/// The most slots one chained request runs.
#define DETENT_SLOT_CHAIN 64

/// Runs `count` proxies' slots, all of one sandbox and each fed only by the one before it, on
/// one request: `inputs` into the first, the last's output into `outputs`, `controls[k]` the
/// k-th slot's values, as `detent_slot_proxy_run` would run them in turn and the engine hand
/// each output to the next (absurd output replaced by the slot's input, denormals made 0, the
/// input limit). `reports[k]` gets the frames slot k's output was absurd and replaced (0 or
/// `frames`), `reports[count]` the denormals made 0 between slots.
/// Returns 1 when it ran; 0 when it cannot now, nothing done (a slot starting, fading in,
/// failed, given a side signal, or not of the sandbox); −1 when the sandbox failed in the
/// run: every slot of it is marked failed (the first that did not answer as the culprit), and
/// each passes its input through from its next run.
intptr_t detent_slot_proxies_run(void *_Nullable const *_Nonnull contexts, const float *_Nonnull const *_Nonnull controls,
                                 intptr_t count, const float *_Nonnull const *_Nonnull inputs,
                                 float *_Nonnull const *_Nonnull outputs, intptr_t channels, intptr_t frames,
                                 int64_t *_Nonnull reports);

/// Brings a failed proxy back to a new process serving its block (host, not the audio
/// thread's; the audio thread sees it at its next run): requests start afresh.
void detent_slot_proxy_revive(DetentSlotProxy *_Nonnull proxy);

/// Makes a proxy as a new slot's, for a plug-in its sandbox made anew on the same block (a
/// whole signal's fresh start, offline): requests start afresh, no pass-through history, no
/// failures counted, and no fade in (host, with no audio thread running it).
void detent_slot_proxy_renew(DetentSlotProxy *_Nonnull proxy);

// MARK: The slot's half

/// The real kernel, as the slot's process made it: the same functions an `ExternalKernel`
/// holds (null where it has none).
typedef struct {
    void *_Nullable context;
    void (*_Nonnull run)(void *_Nullable, const float *_Nonnull, const float *_Nonnull const *_Nonnull,
                         float *_Nonnull const *_Nonnull, intptr_t, intptr_t);
    void (*_Nullable reset)(void *_Nullable);
    void (*_Nullable begin_events)(void *_Nullable);
    bool (*_Nullable add_event)(void *_Nullable, uint32_t, const uint8_t *_Nonnull, uint32_t);
    void (*_Nullable transport)(void *_Nullable, int64_t, float, int64_t, float, double, int32_t, float, float);
    void (*_Nullable drain)(void *_Nullable, uint32_t, DetentSlotMIDISink _Nonnull, void *_Nullable);
    void (*_Nullable side)(void *_Nullable, const float *_Nonnull const *_Nonnull, intptr_t);
} DetentSlotKernel;

/// Where a sandbox's member is, for its serving thread.
enum {
    DETENT_SLOT_MEMBER_EMPTY = 0,
    DETENT_SLOT_MEMBER_ACTIVE = 1,   // served
    DETENT_SLOT_MEMBER_RETIRING = 2, // to be let go: the serving thread stops touching it
    DETENT_SLOT_MEMBER_RETIRED = 3,  // it has: its kernel and block may be freed
};

/// One slot a sandbox's process serves: its block, its kernel, the last request answered.
typedef struct {
    DetentSlotShared *_Nullable shared;
    DetentSlotKernel kernel;
    uint32_t seen;
    uint32_t phase; // DETENT_SLOT_MEMBER_*
} DetentSlotMember;

/// Marks the slot READY, and `member` (its block and kernel filled in) served from the
/// request count then: the host may ask from this moment.
void detent_slot_member_open(DetentSlotGroup *_Nonnull group, DetentSlotMember *_Nonnull member);

/// Asks the serving thread to stop touching `member`, and waits at most `timeout_ns` until it
/// has; true once it has (then its kernel and block may be freed).
bool detent_slot_member_retire(DetentSlotGroup *_Nonnull group, DetentSlotMember *_Nonnull member, int64_t timeout_ns);

/// Serves every active member of `members` (`capacity` of them) until the group's `quit` is
/// set: the sandbox's process, on the thread that runs the plug-ins.
void detent_slot_group_serve(DetentSlotGroup *_Nonnull group, DetentSlotMember *_Nonnull members, uint32_t capacity);

/// Lets the serving thread go (it returns from ``detent_slot_group_serve``).
void detent_slot_group_quit(DetentSlotGroup *_Nonnull group);

#endif
