/* Preloaded into a peer host (applyplugin) so that it runs its plug-ins with the arithmetic
 * Detent runs them with: flush-to-zero and denormals-are-zero, set once at start-up on the
 * one thread such a host has, so that no difference between the two is one of denormals. */
#include <pmmintrin.h>
#include <xmmintrin.h>

__attribute__((constructor)) static void flush_denormals(void) {
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
}
