#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <spawn.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include "CPlatform.h"

int detent_name_current_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = '\0';
    return pthread_setname_np(pthread_self(), shortened);
}

int detent_sem_wait_monotonic(sem_t *semaphore, const struct timespec *deadline) {
    return sem_clockwait(semaphore, CLOCK_MONOTONIC, deadline);
}

long detent_tee(int from, int to, unsigned long count) {
    return (long)tee(from, to, count, 0);
}

int detent_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int detent_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
