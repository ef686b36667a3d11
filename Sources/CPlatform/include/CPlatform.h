#ifndef DETENT_CPLATFORM_H
#define DETENT_CPLATFORM_H

#include <semaphore.h>
#include <spawn.h>
#include <time.h>

#include "DetentLibrary.h"

/// The GNU extensions `Platform` needs. Swift's Glibc module is built without
/// `_GNU_SOURCE`, so it does not import `pthread_setname_np`, `sem_clockwait` or `tee`; these
/// wrappers are compiled in CPlatform.c, which defines it.

/// Names the calling thread (at most 15 bytes are kept, the kernel's limit). Returns 0 or an
/// error number.
int detent_name_current_thread(const char *name);

/// `sem_clockwait(semaphore, CLOCK_MONOTONIC, deadline)`: waits until `deadline` on the
/// monotonic clock, so setting the wall clock neither stretches nor cuts the wait. Returns 0,
/// or -1 with `errno` set (ETIMEDOUT, EINTR).
int detent_sem_wait_monotonic(sem_t *semaphore, const struct timespec *deadline);

/// `tee(from, to, count, 0)`: copies up to `count` bytes waiting in the pipe `from` into the
/// pipe `to` without consuming them. Returns the bytes copied (0 at the end of the stream),
/// or -1 with `errno` set (EINVAL when `from` is not a pipe).
long detent_tee(int from, int to, unsigned long count);

/// `pipe2(fds, O_CLOEXEC)`: a pipe whose ends are close-on-exec from their creation, so no
/// program another thread starts meanwhile inherits them. Returns 0, or -1 with `errno` set.
/// mkostemp(template, O_CLOEXEC): a new, uniquely named file, close-on-exec from the start
/// (Swift's Glibc module does not import mkostemp, a GNU extension).
int detent_mkstemp_cloexec(char *template_path);
int detent_pipe_cloexec(int fds[2]);

/// `posix_spawn_file_actions_addclosefrom_np(actions, from)`: the spawned program closes
/// every descriptor from `from` up before it runs. Returns 0 or an error number.
int detent_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/// `fork()`, then in the child every signal at its default action and none blocked,
/// `dup2(keep, as)` and every descriptor above `as` closed: a copy of this process that
/// holds its standard streams and `keep` alone. Returns the
/// child's process id in the parent, 0 in the child, -1 with `errno` on failure.
pid_t detent_fork_keeping(int keep, int as);

/// `sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE)`: starts writing those bytes
/// of a file to its disk without waiting, so a later `fsync` finds little left to do. Returns
/// 0, or -1 with `errno` set.
int detent_start_writeback(int fd, long long offset, long long count);

/// `prctl(PR_SET_PDEATHSIG, signal)`, then `signal` sent at once when the parent is already
/// gone (`getppid()` no longer `parent`): a helper program that ends with the one that
/// started it. Returns 0, or -1 with `errno` set.
int detent_die_with_parent(int signal, pid_t parent);

/// `setsockopt(fd, SOL_SOCKET, SO_PASSCRED, 1)`: every datagram a Unix socket receives
/// carries its sender's credentials, filled in by the kernel. Returns 0, or -1 with `errno`.
int detent_pass_credentials(int fd);

/// `recvmsg(fd, …, MSG_TRUNC)` into `buffer`: the datagram's whole size (or -1 with `errno`),
/// its sender's address in `from` (`from_size` in: the room, out: the length) and, when the
/// socket passes credentials (a Unix socket), the sending process's user in `uid`; else
/// `uid` is `(unsigned)-1`.
long detent_receive_from(int fd, void *buffer, unsigned long size, void *from, unsigned int *from_size,
                         unsigned int *uid);

/// `socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC)`: two connected ends that keep each
/// message whole and in order. Returns 0 with the ends in `ends`, or -1 with `errno` set.
int detent_packet_pair(int ends[2]);

/// `sendmsg` of one message of `size` bytes on a Unix socket, with descriptor `fd` passed
/// along (SCM_RIGHTS) when it is not negative. Returns the bytes sent, or -1 with `errno`.
long detent_send_with_descriptor(int socket, const void *bytes, unsigned long size, int fd);

/// `recvmsg` of one message into `buffer` (at most `size` bytes), and the descriptor passed
/// with it, close-on-exec, in `fd` (-1 when none came). Returns the message's size (0 once the
/// other end closed), or -1 with `errno` set.
long detent_receive_with_descriptor(int socket, void *buffer, unsigned long size, int *fd);

/// `renameat2(first, second, RENAME_EXCHANGE)`: the two names swap what they name in one step,
/// so neither is ever missing (a preset's state folder replaced by a new one). Returns 0, or
/// -1 with `errno` set (ENOENT when either is missing; EINVAL where the file system cannot).
int detent_rename_exchange(const char *first, const char *second);

#endif
