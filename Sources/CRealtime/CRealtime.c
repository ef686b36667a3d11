/* Header-only module: see include/CRealtime.h. */
#include "CRealtime.h"

unsigned long detent_realtime_regions_entered = 0;
unsigned int detent_own_changes_made = 0;
