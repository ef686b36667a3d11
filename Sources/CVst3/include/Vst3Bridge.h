#ifndef DETENT_VST3_BRIDGE_H
#define DETENT_VST3_BRIDGE_H

#include <stdint.h>
#include <lv2/core/lv2.h>

/// The VST3 bridge descriptor the kernel loop calls.
const LV2_Descriptor *_Nonnull detent_vst3_bridge(void);

#endif
