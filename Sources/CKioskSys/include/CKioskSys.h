// C helpers for KioskSys: what Swift cannot call directly (variadic functions).
#ifndef CKIOSKSYS_H
#define CKIOSKSYS_H

/// ioctl(2) with a pointer argument (ioctl itself is variadic, so Swift cannot call it).
int kiosk_ioctl(int fd, unsigned long request, void *arg);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC (a GNU extension Glibc's module does not show).
int kiosk_accept(int fd);
/// SO_PEERCRED of a connected Unix socket: 0, or -1 with errno.
int kiosk_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid);
/// SO_PEERGROUPS of a connected Unix socket into `groups` (room for `capacity`): the count, -1
/// with errno, or -2 - N when N groups do not fit.
int kiosk_peer_groups(int fd, unsigned int *groups, int capacity);
struct stat;
/// The regular file at `path` opened for reading, as the user `uid` with groups `gid` and
/// `groups` when `as_user` (on a thread of its own: the process keeps its identity), never
/// opening anything else (looked up with O_PATH and fstat'ed first): the descriptor, or -1 with
/// errno (`*not_regular` set, and `st` filled, when it is not a regular file).
int kiosk_open_regular_as(const char *path, int as_user, unsigned int uid, unsigned int gid,
                          const unsigned int *groups, int group_count, struct stat *st, int *not_regular);
/// memfd_create(2) with MFD_CLOEXEC.
int kiosk_memfd(const char *name);
/// The group (when `set_group`) and mode of the socket file at `path`, changed without following
/// a symbolic link: 0, or -1 with errno (`*not_socket` set when what is there is not a socket).
int kiosk_set_socket_owner_mode(const char *path, int set_group, unsigned int gid, unsigned int mode, int *not_socket);
/// eventfd(2), non-blocking and close-on-exec.
int kiosk_eventfd(void);
/// pipe2(2) with O_CLOEXEC (a GNU extension).
int kiosk_pipe_cloexec(int fds[2]);
/// prctl(PR_SET_CHILD_SUBREAPER, 1) (prctl is variadic).
int kiosk_set_child_subreaper(void);
int kiosk_pidfd_open(int pid);
#include <stddef.h>
const void *kiosk_memrchr(const void *s, int c, size_t n);
const void *kiosk_memmem(const void *h, size_t hn, const void *n, size_t nn);
#include <spawn.h>
int kiosk_spawn_closefrom(posix_spawn_file_actions_t *actions, int from);

/// CLOCK_MONOTONIC nanoseconds when the program's constructors ran (after dynamic loading).
unsigned long long kiosk_process_start_ns(void);
/* Page faults (minor + major) of this process so far, and when its constructors ran (-1: unknown). */
long kiosk_page_faults(void);
long kiosk_process_start_page_faults(void);

/// glibc's malloc, whose controls are not in Swift's Glibc module (malloc.h). Both return -1
/// where the C library is not glibc. A fixed mmap threshold (M_MMAP_THRESHOLD) puts every block
/// of `bytes` or more in its own mapping, given back whole when freed (a fixed value also stops
/// glibc from raising the threshold to the size of each large block freed, which sends the next
/// full frames into the heap, where they stay).
int kiosk_malloc_set_mmap_threshold(int bytes);
/// malloc_trim(0): free heap pages given back to the kernel; 1 if some were.
int kiosk_malloc_trim(void);

#include "CKioskDRM.h"
#include "CKioskFrameCache.h"

#endif
