#ifndef DETENT_VST2_BRIDGE_H
#define DETENT_VST2_BRIDGE_H

#include <stdint.h>
#include <lv2/core/lv2.h>

/// The VST2 bridge descriptor the kernel loop calls.
const LV2_Descriptor *_Nonnull detent_vst2_bridge(void);

#endif
