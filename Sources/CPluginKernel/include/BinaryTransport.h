#ifndef DETENT_BINARY_TRANSPORT_H
#define DETENT_BINARY_TRANSPORT_H

#include <math.h>
#include <stdint.h>
#include <string.h>
#include <lv2/core/lv2.h>

/// Where a transport is, as a binary plug-in's bridge (VST2, VST3, CLAP) keeps it: told by the
/// kernel whenever JACK's transport changes (a timebase master's bars and beats, live), or, if
/// never told, rolling from frame 0 in 4/4 at the tempo the engine was given (`--bpm`).
typedef struct DetentTransport {
    _Bool known;
    _Bool rolling;
    /// The bridge's own frame count (frames run) when it was told.
    uint64_t told_at;
    /// At that point: the transport's frame, the bar and beats from 0 (in beat units), the
    /// beat within the bar.
    int64_t frame;
    int64_t bar;
    double beat;
    double bar_beat;
    double beats_per_bar;
    int32_t beat_unit;
    double beats_per_minute;
} DetentTransport;

/// The extension a bridge's descriptor gives for `DETENT_TRANSPORT_URI`: how the kernel tells
/// each instance where the transport is, for its next run (audio thread; a copy, no more).
#define DETENT_TRANSPORT_URI "urn:detent:transport"
typedef struct DetentTransportReceiver {
    void (*_Nonnull tell)(LV2_Handle _Nonnull instance, const DetentTransport *_Nonnull transport);
} DetentTransportReceiver;

/// A bridge's transport extension, written once: `bridge_extension_data` (its descriptor's
/// `extension_data`) gives a receiver whose `tell` copies the transport into the instance's
/// `field` (an instance of `type`), noting the instance's frames run, `position`, as when.
#define DETENT_TRANSPORT_EXTENSION(type, field, position) \
    static void bridge_tell_transport(LV2_Handle handle, const DetentTransport *transport) { \
        type *instance = (type *)handle; \
        instance->field = *transport; \
        instance->field.told_at = (uint64_t)(position); \
    } \
    static const DetentTransportReceiver transport_receiver = {.tell = bridge_tell_transport}; \
    static const void *bridge_extension_data(const char *uri) { \
        return strcmp(uri, DETENT_TRANSPORT_URI) == 0 ? &transport_receiver : NULL; \
    }

/// The musical time at a bridge's frame `position`, in the terms the three formats share:
/// quarter notes.
typedef struct DetentMusicalTime {
    _Bool rolling;
    /// The transport's frame.
    int64_t frame;
    double beats_per_minute;
    /// Quarter notes since the start, and at the start of the current bar.
    double quarters;
    double bar_start_quarters;
    int64_t bar;
    int32_t numerator;
    int32_t denominator;
} DetentMusicalTime;

/// Where `transport` is `position` frames into the bridge's run (its frames run so far), at
/// `sample_rate`; `tempo` is the engine's (`--bpm`, 0 for 120) when no transport was told.
static inline DetentMusicalTime detent_musical_time(const DetentTransport *_Nonnull transport, uint64_t position,
                                                    double tempo, double sample_rate) {
    double rate = sample_rate > 0 ? sample_rate : 48000;
    if (!transport->known) {
        double bpm = tempo > 0 ? tempo : 120;
        double quarters = (double)position / rate * bpm / 60.0;
        double bar = floor(quarters / 4.0);
        return (DetentMusicalTime){.rolling = 1, .frame = (int64_t)position, .beats_per_minute = bpm, .quarters = quarters,
                                   .bar_start_quarters = bar * 4.0, .bar = (int64_t)bar, .numerator = 4, .denominator = 4};
    }
    double elapsed = transport->rolling && position > transport->told_at ? (double)(position - transport->told_at) : 0;
    double beats = elapsed / rate * transport->beats_per_minute / 60.0;
    double per_bar = transport->beats_per_bar > 0 ? transport->beats_per_bar : 4;
    double in_bar = transport->bar_beat + beats;
    double bars = floor(in_bar / per_bar);
    double quarter = 4.0 / (transport->beat_unit > 0 ? transport->beat_unit : 4);
    double now = transport->beat + beats;
    return (DetentMusicalTime){.rolling = transport->rolling, .frame = transport->frame + (int64_t)elapsed,
                               .beats_per_minute = transport->beats_per_minute, .quarters = now * quarter,
                               .bar_start_quarters = (now - (in_bar - bars * per_bar)) * quarter,
                               .bar = transport->bar + (int64_t)bars, .numerator = (int32_t)lround(per_bar),
                               .denominator = transport->beat_unit > 0 ? transport->beat_unit : 4};
}

/// Tells every instance of a binary plug-in's kernel where the transport is (the engine's
/// `transport` for a kernel whose bridge has `transport_receiver`); audio thread.
void detent_binary_transport(void *_Nullable context, int64_t frame, float speed, int64_t bar, float barBeat,
                             double beat, int32_t beatUnit, float beatsPerBar, float beatsPerMinute);


/// A binary format's bridge descriptor, `static const LV2_Descriptor bridge`, and `getter`,
/// the function that returns it: the kernel loop calls the bridge's own `connect_port`,
/// `activate`, `run`, `deactivate` and `extension_data` (which gives the transport extension)
/// on handles the format's module made, so there is no `instantiate` or `cleanup`.
#define DETENT_BRIDGE_DESCRIPTOR(uri, getter) \
    static const LV2_Descriptor bridge = { \
        .URI = uri, \
        .instantiate = NULL, \
        .connect_port = bridge_connect, \
        .activate = bridge_activate, \
        .run = bridge_run, \
        .deactivate = bridge_deactivate, \
        .cleanup = NULL, \
        .extension_data = bridge_extension_data, \
    }; \
    const LV2_Descriptor *getter(void) { return &bridge; }

#endif
