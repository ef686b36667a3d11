#ifndef DETENT_CLAP_BRIDGE_H
#define DETENT_CLAP_BRIDGE_H

#include <stdint.h>
#include <lv2/core/lv2.h>

/// The CLAP bridge descriptor the kernel loop calls.
const LV2_Descriptor *_Nonnull detent_clap_bridge(void);

#endif
