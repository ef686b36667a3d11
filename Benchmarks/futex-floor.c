/* The floor under an isolated slot's cost: one bare futex round trip between two processes,
   once a period, and nothing else. Process A (this one) and B (its forked child) share an
   anonymous MAP_SHARED page holding two futex words, `go` and `done` (shared between
   processes, so FUTEX_WAIT and FUTEX_WAKE without FUTEX_PRIVATE_FLAG). Every period
   (FRAMES / 48000 s, on absolute CLOCK_MONOTONIC deadlines), A bumps `go` and wakes B, then
   waits on `done` until B has answered; B waits on `go` and answers each bump on `done`.
   Neither spins: both sleep in the kernel between periods, so the CPU they use is what one
   wake-and-answer costs (with A's own wake-up from its timer). Runs SECONDS seconds, then
   prints one line: the round trips made, the seconds they took, the CPU time of both
   processes (getrusage: A's own since before the fork, and B's once it has ended) as % of
   one core, and that CPU time per round trip in microseconds:

     round_trips=N seconds=S cpu_percent=P us_per_round_trip=U

   Usage: futex-floor FRAMES SECONDS */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RATE 48000

struct words {
    uint32_t go;   /* A's request count */
    uint32_t done; /* the last request B answered */
    uint32_t stop; /* set by A (before its last bump of go): B is to end */
};

static void futex_wake(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0); }

/* Sleeps while *word is still `value` (or returns at once if it is not any more). */
static void futex_wait(uint32_t *word, uint32_t value) {
    syscall(SYS_futex, word, FUTEX_WAIT, value, NULL, NULL, 0);
}

static uint32_t load(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_ACQUIRE); }

static int64_t ns(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

static double cpu_seconds(struct rusage r) {
    return r.ru_utime.tv_sec + r.ru_stime.tv_sec + (r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
}

static void fail(const char *what) {
    perror(what);
    exit(1);
}

/* B: answers every bump of `go` on `done` until told to stop. */
static void answer(struct words *w) {
    uint32_t seen = 0, go;
    for (;;) {
        while ((go = load(&w->go)) == seen) futex_wait(&w->go, seen);
        seen = go;
        if (load(&w->stop)) return;
        __atomic_store_n(&w->done, go, __ATOMIC_RELEASE);
        futex_wake(&w->done);
    }
}

int main(int argc, char **argv) {
    long frames = argc == 3 ? strtol(argv[1], NULL, 10) : 0;
    double seconds = argc == 3 ? strtod(argv[2], NULL) : 0;
    if (frames <= 0 || seconds <= 0) {
        fprintf(stderr, "usage: futex-floor FRAMES SECONDS\n");
        return 64;
    }
    struct words *w = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (w == MAP_FAILED) fail("mmap");

    struct rusage before, after, child;
    getrusage(RUSAGE_SELF, &before);
    pid_t pid = fork();
    if (pid < 0) fail("fork");
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives A */
        answer(w);
        _exit(0);
    }

    struct timespec start, end, deadline;
    clock_gettime(CLOCK_MONOTONIC, &start);
    const int64_t first = ns(start), last = first + (int64_t)(seconds * 1e9);
    long trips = 0;
    for (int64_t k = 1;; k++) {
        /* The k-th period's end, from the start (no drift from rounding a period). */
        int64_t due = first + k * frames * 1000000000 / RATE;
        if (due > last) break;
        deadline.tv_sec = due / 1000000000;
        deadline.tv_nsec = due % 1000000000;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL) == EINTR) {}
        uint32_t n = __atomic_add_fetch(&w->go, 1, __ATOMIC_RELEASE), done;
        futex_wake(&w->go);
        while ((done = load(&w->done)) != n) futex_wait(&w->done, done);
        trips++;
    }
    clock_gettime(CLOCK_MONOTONIC, &end);

    __atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
    __atomic_add_fetch(&w->go, 1, __ATOMIC_RELEASE);
    futex_wake(&w->go);
    int status;
    if (waitpid(pid, &status, 0) != pid) fail("waitpid");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "futex-floor: the answering process failed\n");
        return 1;
    }
    getrusage(RUSAGE_SELF, &after);
    getrusage(RUSAGE_CHILDREN, &child);

    double wall = (ns(end) - first) / 1e9;
    double cpu = cpu_seconds(after) - cpu_seconds(before) + cpu_seconds(child);
    printf("round_trips=%ld seconds=%.3f cpu_percent=%.4f us_per_round_trip=%.3f\n", trips, wall,
           100 * cpu / wall, trips ? 1e6 * cpu / trips : 0.0);
    return 0;
}
