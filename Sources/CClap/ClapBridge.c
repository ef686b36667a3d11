#include "ClapBridge.h"

static const LV2_Descriptor bridge = {.URI = "urn:detent:clap-bridge"};

const LV2_Descriptor *detent_clap_bridge(void) { return &bridge; }
