// The libebur128.so.1 functions Detent calls, defined here as calls into the library opened on first
// use (see DetentLibrary.h, which also says how to add one).
#include "CEbur128.h"
#include "DetentLibrary.h"

#define EBUR128_CALLS(F, V) \
    F(int, ebur128_add_frames_float, (ebur128_state *st, const float *src, size_t frames), (st, src, frames)) \
    V(ebur128_destroy, (ebur128_state **st), (st)) \
    F(ebur128_state *, ebur128_init, (unsigned int channels, unsigned long samplerate, int mode), (channels, samplerate, mode)) \
    F(int, ebur128_loudness_global, (ebur128_state *st, double *out), (st, out)) \
    F(int, ebur128_loudness_momentary, (ebur128_state *st, double *out), (st, out)) \
    F(int, ebur128_set_channel, (ebur128_state *st, unsigned int channel_number, int value), (st, channel_number, value)) \
    F(int, ebur128_true_peak, (ebur128_state *st, unsigned int channel_number, double *out), (st, channel_number, out))

DETENT_OPENED_ON_FIRST_USE(EBUR128_CALLS, "libebur128.so.1", "measuring loudness", detent_ebur128_load)
