#ifndef DETENT_CLO_SHIM_H
#define DETENT_CLO_SHIM_H

// liblo: Open Sound Control over UDP (a server thread, messages, addresses).
#include <lo/lo.h>

#endif
