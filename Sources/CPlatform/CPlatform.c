#define _GNU_SOURCE
#include <sys/prctl.h>
#include <pthread.h>
#include <signal.h>
#include <semaphore.h>
#include <spawn.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
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

int detent_mkstemp_cloexec(char *template_path) {
    return mkostemp(template_path, O_CLOEXEC);
}

int detent_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int detent_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

pid_t detent_fork_keeping(int keep, int as) {
    pid_t pid = fork();
    if (pid != 0) return pid;
    // As a program started anew would: every signal at its default action, none blocked (a
    // crash handler of this process, Swift's backtracer, must not take a copy's crash).
    for (int signal = 1; signal < NSIG; signal++) {
        if (signal != SIGKILL && signal != SIGSTOP) sigaction(signal, &(struct sigaction){ .sa_handler = SIG_DFL }, NULL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (keep != as) {
        dup2(keep, as);  // clears close-on-exec on `as`; nothing is executed anyway
    }
    closefrom(as + 1);
    return 0;
}

int detent_start_writeback(int fd, long long offset, long long count) {
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
}

// MARK: Libraries opened on first use

#include "DetentLibrary.h"
#include <dlfcn.h>
#include <stdio.h>

int detent_library_load(DetentLibrary *library) {
    if (__atomic_load_n(&library->loaded, __ATOMIC_ACQUIRE)) return 0;
    pthread_mutex_lock(&library->lock);
    int result = 0;
    if (!library->loaded) {
        // RTLD_LOCAL: the library's names stay out of the program's scope, so a plug-in or
        // another library never binds to them by accident.
        void *handle = dlopen(library->soname, RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            const char *why = dlerror();
            snprintf(library->problem, sizeof library->problem, "%s", why ? why : library->soname);
            result = -1;
        } else {
            for (size_t i = 0; i < library->count && result == 0; i++) {
                void *address = dlsym(handle, library->symbols[i].name);
                if (!address) {
                    snprintf(library->problem, sizeof library->problem, "%s has no %s", library->soname,
                             library->symbols[i].name);
                    result = -1;
                } else {
                    *library->symbols[i].slot = address;
                }
            }
            // A library without a function Detent calls stays open (closing one whose
            // constructors ran is not always safe) but is never used.
            if (result == 0) __atomic_store_n(&library->loaded, 1, __ATOMIC_RELEASE);
        }
    }
    pthread_mutex_unlock(&library->lock);
    return result;
}

void detent_library_require_slow(DetentLibrary *library) {
    if (detent_library_load(library) == 0) return;
    fprintf(stderr, "detent: %s needs %s, which cannot be loaded: %s\n", library->purpose, library->soname,
            library->problem);
    exit(1);
}

int detent_die_with_parent(int signal, pid_t parent) {
    if (prctl(PR_SET_PDEATHSIG, signal) != 0) return -1;
    if (getppid() != parent) raise(signal);
    return 0;
}

#include <sys/socket.h>
#include <sys/un.h>

int detent_pass_credentials(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
}

int detent_packet_pair(int ends[2]) { return socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends); }

long detent_send_with_descriptor(int socket, const void *bytes, unsigned long size, int fd) {
    struct iovec part = { (void *)bytes, size };
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1 };
    if (fd >= 0) {
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        struct cmsghdr *c = CMSG_FIRSTHDR(&message);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof fd);
    }
    return (long)sendmsg(socket, &message, MSG_NOSIGNAL);
}

long detent_receive_with_descriptor(int socket, void *buffer, unsigned long size, int *fd) {
    struct iovec part = { buffer, size };
    union {
        char bytes[CMSG_SPACE(4 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr message = { .msg_iov = &part, .msg_iovlen = 1, .msg_control = control.bytes,
                              .msg_controllen = sizeof control.bytes };
    *fd = -1;
    ssize_t n = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    if (n < 0) return -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; i++) {
            int passed;
            memcpy(&passed, CMSG_DATA(c) + i * sizeof(int), sizeof passed);
            if (*fd < 0) *fd = passed; else close(passed);  // one is expected; any more are not kept
        }
    }
    if (message.msg_flags & MSG_TRUNC) {
        if (*fd >= 0) close(*fd);
        *fd = -1;
        errno = EMSGSIZE;
        return -1;
    }
    return (long)n;
}

long detent_receive_from(int fd, void *buffer, unsigned long size, void *from, unsigned int *from_size,
                         unsigned int *uid) {
    struct iovec part = { buffer, size };
    union {
        char bytes[CMSG_SPACE(sizeof(struct ucred))];
        struct cmsghdr align;
    } control;
    struct msghdr message = {
        .msg_name = from, .msg_namelen = *from_size, .msg_iov = &part, .msg_iovlen = 1,
        .msg_control = control.bytes, .msg_controllen = sizeof control.bytes,
    };
    *uid = (unsigned int)-1;
    ssize_t n = recvmsg(fd, &message, MSG_TRUNC | MSG_CMSG_CLOEXEC);
    if (n < 0) return -1;
    *from_size = message.msg_namelen;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS && c->cmsg_len >= CMSG_LEN(sizeof(struct ucred))) {
            struct ucred credentials;
            memcpy(&credentials, CMSG_DATA(c), sizeof credentials);
            *uid = credentials.uid;
        }
    }
    return (long)n;
}
