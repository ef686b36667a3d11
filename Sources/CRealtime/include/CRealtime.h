#ifndef DETENT_CREALTIME_H
#define DETENT_CREALTIME_H

/// Floating-point environment control for the render path. Denormal numbers are up to a
/// hundred times slower on x86; a decaying filter tail produces them. The engine switches
/// flush-to-zero and denormals-are-zero on for the duration of each block and restores the
/// caller's mode afterwards, so live and offline rendering run the same arithmetic.
/// `detent_denormals_on` is the opposite switch (full IEEE arithmetic), for a caller that
/// must know the mode it starts from; both return the mode to restore.

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
static inline unsigned int detent_denormals_off(void) {
    unsigned int saved = _mm_getcsr();
    /* The whole mode, not the caller's with two bits added: every exception masked, round to
       nearest, FTZ (bit 15) and DAZ (bit 6). A rounding mode or unmasked exception that
       something else left on this thread must not change what a render computes. */
    _mm_setcsr(0x1F80u | 0x8040u);
    return saved;
}
static inline void detent_denormals_restore(unsigned int saved) { _mm_setcsr(saved); }
static inline unsigned int detent_denormals_on(void) {
    unsigned int saved = _mm_getcsr();
    _mm_setcsr(saved & ~0x8040u);
    return saved;
}
#elif defined(__aarch64__)
static inline unsigned int detent_denormals_off(void) {
    unsigned long fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    /* Only FZ (bit 24): round to nearest, no traps, whatever the caller had. */
    __asm__ __volatile__("msr fpcr, %0" ::"r"(1UL << 24));
    return (unsigned int)fpcr;
}
static inline void detent_denormals_restore(unsigned int saved) {
    unsigned long fpcr = saved;
    __asm__ __volatile__("msr fpcr, %0" ::"r"(fpcr));
}
static inline unsigned int detent_denormals_on(void) {
    unsigned long fpcr;
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
    __asm__ __volatile__("msr fpcr, %0" ::"r"(fpcr & ~(1UL << 24)));
    return (unsigned int)fpcr;
}
#else
static inline unsigned int detent_denormals_off(void) { return 0; }
static inline void detent_denormals_restore(unsigned int saved) { (void)saved; }
static inline unsigned int detent_denormals_on(void) { return 0; }
#endif

/// RealtimeSanitizer hooks. They are weak so a normal build links without the sanitizer
/// runtime; under `-fsanitize=realtime` they resolve and mark the audio callback as a
/// real-time context, where any malloc, lock or blocking syscall is reported.
void __rtsan_realtime_enter(void) __attribute__((weak));
void __rtsan_realtime_exit(void) __attribute__((weak));
void __rtsan_ensure_initialized(void) __attribute__((weak));

/// Real-time regions entered so far in this process: what a test reads to know that the
/// audio callback still marks itself real-time, without which every sanitizer run would check
/// nothing. A relaxed atomic add: no lock, no system call.
extern unsigned long detent_realtime_regions_entered;

/// How many times, in this process, a plug-in has changed one of its own parameters (an output
/// parameter event for a writable parameter): bumped by the format bridges on the audio
/// thread, so that a live host's process callback can wake its supervisor to take the new
/// values, as it does for a MIDI controller's. A relaxed atomic: no lock, no system call.
extern unsigned int detent_own_changes_made;

static inline void detent_own_change_noted(void) { __atomic_add_fetch(&detent_own_changes_made, 1, __ATOMIC_RELAXED); }
static inline unsigned int detent_own_changes(void) { return __atomic_load_n(&detent_own_changes_made, __ATOMIC_RELAXED); }

static inline void detent_rtsan_enter(void) {
    __atomic_add_fetch(&detent_realtime_regions_entered, 1, __ATOMIC_RELAXED);
    if (__rtsan_realtime_enter) __rtsan_realtime_enter();
}

/// How many real-time regions have been entered (``detent_realtime_regions_entered``).
static inline unsigned long detent_realtime_regions(void) {
    return __atomic_load_n(&detent_realtime_regions_entered, __ATOMIC_RELAXED);
}
static inline void detent_rtsan_exit(void) {
    if (__rtsan_realtime_exit) __rtsan_realtime_exit();
}

/// Starts the sanitizer runtime when one is present (linked in, or preloaded into the
/// process), and returns 1 then, 0 without one. A preloaded runtime starts lazily and checks
/// nothing until it has started: without this call a region's unsafe calls can go unseen.
static inline int detent_rtsan_start(void) {
    if (!__rtsan_ensure_initialized || !__rtsan_realtime_enter) return 0;
    __rtsan_ensure_initialized();
    return 1;
}

#endif
