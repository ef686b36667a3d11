/* Preloaded into a test's child process: the wall clock (CLOCK_REALTIME and its coarse
 * variant, gettimeofday, time) reads DETENT_WALL_SHIFT seconds away from the truth, as it
 * would after an administrator or NTP stepped it. The monotonic clocks are left alone. A
 * timed wait that takes its deadline from the wall clock then waits an hour too long or not
 * at all; one on the monotonic clock is unmoved. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

static long shift(void) {
    const char *text = getenv("DETENT_WALL_SHIFT");
    return text ? strtol(text, NULL, 10) : 0;
}

int clock_gettime(clockid_t clock, struct timespec *now) {
    static int (*real)(clockid_t, struct timespec *);
    if (!real) real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int result = real(clock, now);
    if (result == 0 && (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE)) now->tv_sec += shift();
    return result;
}

int gettimeofday(struct timeval *restrict now, void *restrict zone) {
    static int (*real)(struct timeval *restrict, void *restrict);
    if (!real) real = (int (*)(struct timeval *restrict, void *restrict))dlsym(RTLD_NEXT, "gettimeofday");
    int result = real(now, zone);
    if (result == 0 && now) now->tv_sec += shift();
    return result;
}

time_t time(time_t *out) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    if (out) *out = now.tv_sec;
    return now.tv_sec;
}
