#include "Vst2Bridge.h"

static const LV2_Descriptor bridge = {.URI = "urn:detent:vst2-bridge"};

const LV2_Descriptor *detent_vst2_bridge(void) { return &bridge; }
