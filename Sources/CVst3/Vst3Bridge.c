#include "Vst3Bridge.h"

static const LV2_Descriptor bridge = {.URI = "urn:detent:vst3-bridge"};

const LV2_Descriptor *detent_vst3_bridge(void) { return &bridge; }
