#ifndef DETENT_CLO_SHIM_H
#define DETENT_CLO_SHIM_H

// liblo: Open Sound Control over UDP (a server thread, messages, addresses).
#include <lo/lo.h>

/// Opens liblo (once per process; see DetentLibrary.h). Returns NULL, or why it cannot be
/// loaded (the loader's one-line message).
const char *detent_lo_load(void);

#endif
