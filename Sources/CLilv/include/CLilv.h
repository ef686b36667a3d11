#ifndef DETENT_CLILV_SHIM_H
#define DETENT_CLILV_SHIM_H

// lilv: the LV2 host library (discovery, ports, instantiation, state, presets), and the LV2
// headers whose URIs and structures a host fills in.
#include <lilv-0/lilv/lilv.h>
#include <lv2/core/lv2.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/log/log.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/port-groups/port-groups.h>
#include <lv2/port-props/port-props.h>
#include <lv2/presets/presets.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/state/state.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>
#include <lv2/worker/worker.h>

/// Opens liblilv-0 (once per process; see DetentLibrary.h). Returns NULL, or why it cannot be
/// loaded (the loader's one-line message).
const char *detent_lilv_load(void);

#endif
