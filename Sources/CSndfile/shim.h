#ifndef DETENT_CSNDFILE_SHIM_H
#define DETENT_CSNDFILE_SHIM_H

#include <sndfile.h>

#endif
