#ifndef DETENT_CEBUR128_SHIM_H
#define DETENT_CEBUR128_SHIM_H

// libebur128: loudness (EBU R128 / ITU-R BS.1770) and true peak of audio fed to it in blocks.
#include <ebur128.h>

/// Opens libebur128 (once per process; see DetentLibrary.h). Returns NULL, or why it cannot be
/// loaded (the loader's one-line message).
const char *detent_ebur128_load(void);

#endif
