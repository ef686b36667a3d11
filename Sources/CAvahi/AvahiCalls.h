#ifndef DETENT_AVAHI_CALLS_H
#define DETENT_AVAHI_CALLS_H

/// Opens libavahi-client (once per process; see DetentLibrary.h). Returns NULL, or why it
/// cannot be loaded (the loader's one-line message).
const char *detent_avahi_load(void);

#endif
