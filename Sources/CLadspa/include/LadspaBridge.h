#ifndef DETENT_LADSPA_BRIDGE_H
#define DETENT_LADSPA_BRIDGE_H

// LADSPA and DSSI plug-ins run by the same C loop as LV2 plug-ins (CPluginKernel's
// `detent_lv2_run`: controls written, buffers connected, channels adapted). That loop calls a
// plug-in through an `LV2_Descriptor`'s `connect_port`, `run`, `activate` and `deactivate`; the
// bridge here is such a descriptor whose handle is a `DetentLadspaInstance`, and which calls
// the LADSPA descriptor's functions — or a DSSI synth's `run_synth`, with the MIDI messages the
// loop put in its atom sequence turned into ALSA sequencer events. One run loop, one channel
// rule, for every format.

#include <stdint.h>
#include <ladspa.h>
#include <dssi.h>
#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>

/// One instance of a LADSPA or DSSI plug-in, as the bridge's `LV2_Handle`.
typedef struct DetentLadspaInstance {
    const LADSPA_Descriptor *_Nullable descriptor;
    /// The DSSI descriptor of a DSSI plug-in (NULL for plain LADSPA): `run_synth` and
    /// `select_program` are used when it has them.
    const DSSI_Descriptor *_Nullable dssi;
    LADSPA_Handle _Nullable handle;
    /// The port index through which the run loop connects its MIDI atom sequence: one past
    /// the plug-in's own ports, so it never reaches the plug-in.
    uint32_t midi_port;
    const LV2_Atom_Sequence *_Nullable midi;
    /// Room for the events of one run (`run_synth`), converted from `midi`.
    snd_seq_event_t *_Nullable events;
    uint32_t event_capacity;
    uint32_t events_dropped;
    /// The program parameter's value (an index into `programs`, as written by the run loop
    /// into the port memory), or NULL without programs; the bank and program of each index;
    /// the index selected last (-1: none since activation, so one is selected before the next
    /// run, as DSSI asks the host to do).
    const float *_Nullable program_value;
    const unsigned long *_Nullable program_banks;
    const unsigned long *_Nullable program_numbers;
    uint32_t program_count;
    int32_t program_selected;
} DetentLadspaInstance;

/// The bridge descriptor (static; its handles are `DetentLadspaInstance`s).
const LV2_Descriptor *_Nonnull detent_ladspa_bridge(void);

/// Turns up to `capacity` MIDI messages of an atom sequence (`midi` event type ignored: every
/// event of the sequence is MIDI) into ALSA sequencer events timed in frames; program changes
/// and bank selects are left out (DSSI selects programs through `select_program`). Returns the
/// number written. Exposed for tests.
uint32_t detent_dssi_events(const LV2_Atom_Sequence *_Nonnull midi, snd_seq_event_t *_Nonnull events, uint32_t capacity,
                            uint32_t *_Nonnull dropped);

#endif
