#ifndef DETENT_PLUGIN_KERNEL_H
#define DETENT_PLUGIN_KERNEL_H

// The part of LV2 hosting that runs on the audio thread, in C: it writes control values,
// connects audio buffers, resets atom outputs, calls the plug-in's `run` and delivers the
// worker's responses. Everything here is a plain loop over memory the host prepared; it never
// allocates or locks, and calls the system in one place only: waking the live worker thread
// in a cycle where the plug-in queued work (see `detent_lv2_schedule_work`). The one call
// that cannot be checked is the plug-in's own `run`. The memory is allocated and filled by
// the Swift side at `prepare`.

#include <semaphore.h>
#include <stdarg.h>
#include <stdint.h>
#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/log/log.h>
#include <lv2/worker/worker.h>

/// A single-producer, single-consumer ring of variable-sized records (`[uint32 size][pad]
/// [data]`, 8-byte aligned), lock-free: the live worker's requests (audio thread → worker
/// thread) and its responses (worker thread → audio thread) travel in two of these.
typedef struct DetentByteRing {
    uint8_t *_Nullable data;
    uint32_t capacity;   // bytes, a multiple of 8
    uint32_t head;       // bytes written, ever (the producer's; atomically)
    uint32_t tail;       // bytes consumed, ever (the consumer's; atomically)
} DetentByteRing;

/// Appends a record; 0 when it does not fit (nothing written).
int detent_ring_write(DetentByteRing *_Nonnull ring, const void *_Nullable data, uint32_t size);
/// The oldest record, or NULL when the ring is empty; `detent_ring_consume` releases it.
const uint8_t *_Nullable detent_ring_peek(DetentByteRing *_Nonnull ring, uint32_t *_Nonnull size);
void detent_ring_consume(DetentByteRing *_Nonnull ring, uint32_t size);

/// One instance of a plug-in and its worker's pending responses.
typedef struct DetentLV2Instance {
    LV2_Handle _Nullable handle;
    /// The plug-in's worker interface, or NULL.
    const LV2_Worker_Interface *_Nullable worker;
    /// Responses the worker gave during this `run`, delivered after it: `[uint32 size][data]`,
    /// each padded to 8 bytes. Two buffers, so that a response given while responses are
    /// delivered waits for the next delivery pass.
    uint8_t *_Nullable responses;
    uint8_t *_Nullable delivering;
    uint32_t response_capacity;
    uint32_t response_used;
    /// Responses that did not fit (counted; the plug-in was told there was no space).
    uint32_t responses_refused;
    /// Live (non-zero): `schedule_work` queues the request in `requests` for the worker thread
    /// (`detent_lv2_worker_step`), whose responses wait in `answers` and are delivered after
    /// the next `run`. Offline (zero): the work runs at once (see `detent_lv2_schedule_work`).
    uint32_t threaded;
    DetentByteRing requests;
    DetentByteRing answers;
    /// Requests that did not fit in `requests` (the plug-in was told there was no space).
    uint32_t requests_refused;
    /// Live: the worker thread's semaphore, posted once for each request queued in `requests`
    /// (the thread sleeps on it while there is nothing to do). Set before the audio thread
    /// first runs the instance; NULL offline, and until the worker thread exists (it looks at
    /// the rings once when it starts, so nothing queued before is left waiting).
    sem_t *_Nullable wake;
    /// Work requests made and responses delivered so far: a host making the instance can run
    /// it until this stops moving (a plug-in that loads a file over its first runs).
    uint32_t work_done;
} DetentLV2Instance;

/// One MIDI message of the current cycle for the plug-in's MIDI input.
typedef struct DetentMIDIEvent {
    uint32_t frame;    // from the start of the cycle
    uint32_t size;
    uint32_t offset;   // into `midi_bytes`
} DetentMIDIEvent;

/// One MIDI message a plug-in wrote to its MIDI output: its frame since the kernel's last
/// reset (the engine's timeline), and where its bytes are in `midi_out_bytes`.
typedef struct DetentMIDIOutEvent {
    int64_t frame;
    uint32_t size;
    uint32_t offset;
} DetentMIDIOutEvent;

/// What `detent_lv2_run` needs, prepared by the host.
typedef struct DetentLV2Kernel {
    const LV2_Descriptor *_Nullable descriptor;
    DetentLV2Instance *_Nullable instances;
    uint32_t instance_count;
    /// Direct connection (`mapped` = 0): each instance has `audio_per_instance` main inputs and
    /// as many outputs, and instance `i` takes engine channels
    /// `i * audio_per_instance ..< (i + 1) * audio_per_instance`.
    uint32_t audio_per_instance;
    const uint32_t *_Nullable audio_inputs;
    const uint32_t *_Nullable audio_outputs;
    /// Folded connection (`mapped` = 1, one instance): the plug-in's `mapped_inputs` inputs
    /// and `mapped_outputs` outputs are connected once to the buffers below, and the engine's
    /// channels are folded into them and back (see `detent_lv2_fold`).
    uint32_t mapped;
    uint32_t mapped_inputs;
    uint32_t mapped_outputs;
    float *_Nullable mapped_in;     // mapped_inputs × max_frames
    float *_Nullable mapped_out;    // mapped_outputs × max_frames
    uint32_t max_frames;
    /// The port of each parameter, and the range its value is held to: the table's, or for
    /// an `lv2:sampleRate` port (whose table shows Hz at a reference rate) its declared
    /// fractions of the actual rate.
    uint32_t parameter_count;
    const uint32_t *_Nullable parameter_ports;
    const float *_Nullable parameter_low;
    const float *_Nullable parameter_high;
    /// Each instance's port memory: one float per port, control ports connected to theirs.
    float *_Nonnull const *_Nullable port_values;
    /// Atom output sequences, `atom_output_count` per instance, whose size is reset to their
    /// capacity before each `run` as the atom extension asks.
    uint32_t atom_output_count;
    const uint32_t *_Nullable atom_output_ports;
    LV2_Atom_Sequence *_Nonnull const *_Nullable atom_outputs;
    uint32_t atom_capacity;
    uint32_t atom_chunk;
    /// The plug-in's MIDI input (an atom sequence per instance; NULL without one), filled
    /// before each `run` with the messages of the cycle that fall in its stretch of frames.
    LV2_Atom_Sequence *_Nonnull const *_Nullable midi_inputs;
    uint32_t midi_event_type;        // midi:MidiEvent
    uint32_t atom_sequence_type;     // atom:Sequence
    DetentMIDIEvent *_Nullable midi_events;
    uint32_t midi_capacity;          // events
    uint8_t *_Nullable midi_bytes;
    uint32_t midi_bytes_capacity;
    uint32_t midi_count;             // events of this cycle
    uint32_t midi_bytes_used;
    uint32_t midi_next;              // the first event not yet handed to the plug-in
    uint32_t midi_cursor;            // frames of this cycle run so far
    uint32_t midi_dropped;           // events that did not fit (counted)
    /// The plug-in's `time:Position` input (an atom sequence per instance; NULL without one or
    /// without a tempo), and the position to tell it — an `atom:Object` of type `time:Position`
    /// made off the audio thread — at frame 0 of the first `run` after each reset (the
    /// transport starts rolling there). When the same port takes MIDI, the position goes first
    /// in the sequence `fill_midi` writes.
    LV2_Atom_Sequence *_Nonnull const *_Nullable position_inputs;
    _Bool position_shares_midi;
    const LV2_Atom *_Nullable position;
    _Bool position_pending;
    /// True once the position holds a tempo to tell (a starting one, or the transport's):
    /// a reset sends it again then, and only then.
    _Bool position_known;
    /// The plug-in's MIDI output (the first instance's first atom output that supports
    /// midi:MidiEvent; NULL without one). After each `run` its messages are copied into
    /// `midi_out_events` and `midi_out_bytes`, stamped with `frames_run` plus their frame in
    /// the run, until the host takes them (`midi_out_count` back to 0) between blocks, on the
    /// thread that runs the engine (offline renders). A message that does not fit is counted
    /// in `midi_out_dropped`.
    const LV2_Atom_Sequence *_Nullable midi_output;
    DetentMIDIOutEvent *_Nullable midi_out_events;
    uint32_t midi_out_capacity;      // events
    uint8_t *_Nullable midi_out_bytes;
    uint32_t midi_out_bytes_capacity;
    uint32_t midi_out_count;
    uint32_t midi_out_bytes_used;
    uint32_t midi_out_dropped;
    /// Frames run since the last reset: the timeline the MIDI output is stamped on.
    int64_t frames_run;
    /// Message parameters: the plug-in's numeric `patch:writable` properties, table rows
    /// `property_first ..< property_first + property_count`. Before a `run`, each row whose
    /// value differs from the one last sent (NaN after a reset: none) is sent as a `patch:Set`
    /// at frame 0 of the patch input — so a gliding row is sent at each stretch of the
    /// engine's grid — into the MIDI input's sequence when the port is the same
    /// (`patch_shares` 1), the position's (2), or its own sequence (0, `patch_inputs`).
    uint32_t property_count;
    uint32_t property_first;
    const uint32_t *_Nullable property_keys;    // the properties' URIDs
    const uint32_t *_Nullable property_types;   // atom:Float, Double, Int, Long or Bool
    float *_Nullable property_sent;
    uint8_t *_Nullable property_due;
    float *_Nullable property_values;           // the values due, this run
    LV2_Atom_Sequence *_Nonnull const *_Nullable patch_inputs;
    uint32_t patch_shares;
    uint32_t urid_object, urid_patch_set, urid_patch_property, urid_patch_value, urid_urid;
    uint32_t urid_float, urid_double, urid_int, urid_long, urid_bool;
    /// Output parameters: the plug-in's numeric `patch:readable` properties. After each `run`
    /// of the first instance, every `patch:Set` of one (and every `patch:Put` whose body holds
    /// some) in its atom outputs writes the value to `readable_values` (NaN until told), which
    /// the host reads off the audio thread as it reads output ports. A `patch:Get` asking for
    /// all of them goes out at frame 0 of the first `run` after each reset
    /// (`readable_get_pending`), for a plug-in that reports only when asked.
    uint32_t readable_count;
    const uint32_t *_Nullable readable_keys;
    float *_Nullable readable_values;
    _Bool readable_get_pending;
    uint32_t urid_patch_get, urid_patch_put, urid_patch_body;
    /// Side-chain inputs: the audio inputs beside the main ones (`lv2:isSideChain`), `side_count`
    /// per instance, at ports `side_ports`. Before each `run` the engine gives the slot's side
    /// signal, in its own channels (`detent_lv2_side`; NULL: none, the ports keep what they were
    /// connected to). A plug-in that runs once folds those channels into `side_buffers`
    /// (`side_count` × `max_frames`, connected once), as its main inputs are folded; a mono
    /// plug-in run once per channel connects every side port of instance `i` to channel `i`,
    /// as its main input takes that channel.
    uint32_t side_count;
    const uint32_t *_Nullable side_ports;
    float *_Nullable side_buffers;
    const float *_Nonnull const *_Nullable side_in;
    uint32_t side_channels;
    /// A binary plug-in's bridge's way to be told the transport (`DETENT_TRANSPORT_URI`), or
    /// NULL (`detent_binary_transport`).
    const void *_Nullable transport_receiver;
} DetentLV2Kernel;

/// Starts the cycle's MIDI list (`ExternalKernel.beginEvents`; audio thread).
void detent_lv2_midi_begin(void *_Nullable context);
/// Adds one message at `frame` of the cycle (`ExternalKernel.addEvent`); false when full.
_Bool detent_lv2_midi_add(void *_Nullable context, uint32_t frame, const uint8_t *_Nonnull bytes, uint32_t size);

/// Delivers the worker's responses to the plug-in and tells it the cycle ended (after each
/// `run`, on the audio thread): live, those the worker thread has given so far.
void detent_lv2_deliver(DetentLV2Instance *_Nonnull instance);

/// Runs the worker for one queued request of a live instance (the worker thread, after its
/// semaphore `wake` was posted). Returns 0 when there was none.
int detent_lv2_worker_step(DetentLV2Instance *_Nonnull instance);

/// Folds `sources` channels of `frames` frames into `destinations` channels: with more sources
/// than destinations, destination `d` is the mean of the sources `s` with `s % destinations == d`;
/// with fewer, destination `d` is a copy of source `d % sources`. So a mono file feeds both
/// inputs of a stereo plug-in, and a mono-to-stereo plug-in's two outputs become the mean of
/// both in a mono file. `source(i)` / `destination(i)` address channel `i`.
void detent_lv2_fold(const float *_Nonnull const *_Nonnull sources, uint32_t source_count,
                     float *_Nonnull const *_Nonnull destinations, uint32_t destination_count, uint32_t frames);

/// The side-chain signal for the next `run` (the engine's `ExternalKernel.side`, on the audio
/// thread): `channels` pointers, read for as many frames as that run has.
void detent_lv2_side(void *_Nullable context, const float *_Nonnull const *_Nonnull inputs, intptr_t channels);

/// Renders `frames` frames of every instance with the given control values (the engine's
/// `ExternalKernel.run`).
void detent_lv2_run(void *_Nullable context, const float *_Nonnull controls,
                    const float *_Nonnull const *_Nonnull inputs, float *_Nonnull const *_Nonnull outputs,
                    intptr_t channels, intptr_t frames);

/// Deactivates and activates every instance: the plug-ins forget their state (the engine's
/// `reset`; never on the audio thread).
void detent_lv2_reset(void *_Nullable context);

/// One lock, for the whole process, around every plug-in's instantiate, activate, deactivate
/// and cleanup, of any format (recursive: a thread holding it may take it again). Plug-ins
/// share libraries with global state that is not thread-safe, FFTW's planner above all (used by
/// convolvers and spectral plug-ins of LV2 and LADSPA alike): two instances made or freed at
/// once on two threads crash inside it. Never taken on the audio thread. Taken after lilv's
/// world lock where both are held. The first take also makes FFTW's planners thread-safe for
/// the whole process (plug-ins plan in threads of their own too).
void detent_plugin_lifecycle_lock(void);
void detent_plugin_lifecycle_unlock(void);

/// Where a live host's plug-in MIDI goes: one message at `frame` of the cycle just run.
typedef void (*DetentMIDISink)(void *_Nullable target, uint32_t frame, const uint8_t *_Nonnull bytes, uint32_t size);

/// Hands the messages the plug-in wrote in the cycle just run (`cycle_frames` long) to `sink`,
/// in order, each at its frame in the cycle, and forgets them (audio thread, after the runs).
void detent_lv2_midi_out_drain(void *_Nullable context, uint32_t cycle_frames, DetentMIDISink _Nonnull sink,
                               void *_Nullable target);

/// Tells a kernel that reads the transport (``position`` set) where the transport is, for its
/// next `run`: the values go into the prepared `time:Position` object in place and it is sent
/// once. On the audio thread, between runs; nothing is allocated. A kernel without a time input
/// ignores it. `bar` and `beat` count from 0, `barBeat` is the beat within the bar.
void detent_lv2_transport(void *_Nullable context, int64_t frame, float speed, int64_t bar, float barBeat,
                          double beat, int32_t beatUnit, float beatsPerBar, float beatsPerMinute);

/// The worker's `schedule_work`. Offline, the work runs at once in the calling thread (so a
/// render is the same on every run), its responses delivered after the current `run`. Live,
/// the request is queued for the worker thread, which is woken with `sem_post(wake)`: a
/// compare-and-swap on the semaphore's word, plus one `FUTEX_WAKE` system call when the
/// thread is asleep on it. That call never blocks or sleeps, takes no lock a thread could
/// hold while descheduled, and is made only in a cycle where the plug-in asked for work,
/// never in an idle one. `handle` is a `DetentLV2Instance`.
LV2_Worker_Status detent_lv2_schedule_work(LV2_Worker_Schedule_Handle _Nullable handle,
                                           uint32_t size, const void *_Nullable data);

/// Messages a plug-in logs, kept in a fixed ring until the host prints them from its own
/// thread: the log feature may be called from `run`, where nothing may be printed.
///
/// A plug-in logs from more than one thread at once — `run` on the audio thread, `work` on
/// the worker, `instantiate` on the host's — so any number of threads may log while one
/// drains. Each slot has a sequence number (a bounded queue after D. Vyukov's): a writer
/// claims the slot whose number equals the head by moving the head on with a
/// compare-and-swap, writes its message, then publishes it by setting the number to head + 1;
/// the reader takes a slot whose number is tail + 1 and gives it back as tail + slots. No
/// writer waits on another: a full ring drops the message and counts it.
typedef struct DetentLV2Log {
    char *_Nullable messages;      // slots × DETENT_LV2_LOG_MESSAGE bytes
    uint32_t *_Nullable types;     // the URID of each message's type
    uint32_t *_Nullable sequences; // per slot: its sequence number (see above)
    uint32_t slots;                // a power of two
    uint32_t head;                 // the next position a writer claims (atomically)
    uint32_t tail;                 // the next position the reader takes (its own)
    uint32_t dropped;
    uint32_t trace;                // log:Trace, which is not kept
} DetentLV2Log;

#define DETENT_LV2_LOG_MESSAGE 256

int detent_lv2_log_printf(LV2_Log_Handle _Nullable handle, LV2_URID type, const char *_Nonnull format, ...);
int detent_lv2_log_vprintf(LV2_Log_Handle _Nullable handle, LV2_URID type, const char *_Nonnull format, va_list args);

/// Fills `feature` (the log feature's data) to log into `log`: the structure has a variadic
/// member that only C can set.
void detent_lv2_log_feature(DetentLV2Log *_Nonnull log, LV2_Log_Log *_Nonnull feature);

/// Readies `log` to hold `slots` messages (a power of two) in the given storage: `messages`
/// of `slots` × DETENT_LV2_LOG_MESSAGE bytes, `types` and `sequences` of `slots` each.
void detent_lv2_log_prepare(DetentLV2Log *_Nonnull log, uint32_t slots, char *_Nonnull messages,
                            uint32_t *_Nonnull types, uint32_t *_Nonnull sequences, uint32_t trace);

/// Takes the oldest message into `text` (NUL-terminated); 0 when there is none.
int detent_lv2_log_take(DetentLV2Log *_Nonnull log, char *_Nonnull text, uint32_t *_Nonnull type);

#endif
