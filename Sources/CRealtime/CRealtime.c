/* Header-only module: see include/CRealtime.h. */
