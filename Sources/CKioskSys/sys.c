#define _GNU_SOURCE
#include "CKioskSys.h"
#include <errno.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

int kiosk_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

int kiosk_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int kiosk_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid) {
    struct ucred c;
    socklen_t n = sizeof c;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &c, &n) != 0) return -1;
    *pid = c.pid; *uid = c.uid; *gid = c.gid;
    return 0;
}

int kiosk_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

#include <fcntl.h>
#include <unistd.h>
int kiosk_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }

#include <sys/prctl.h>
int kiosk_set_child_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

#include <spawn.h>
/* posix_spawn_file_actions_addclosefrom_np (glibc 2.34): declared only with _GNU_SOURCE, which
   Swift's Glibc module does not set; this file has it. */
int kiosk_spawn_closefrom(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#include <string.h>
/* memrchr(3) and memmem(3), GNU extensions Swift's Glibc module does not declare. */
const void *kiosk_memrchr(const void *s, int c, size_t n) { return memrchr(s, c, n); }
const void *kiosk_memmem(const void *h, size_t hn, const void *n, size_t nn) { return memmem(h, hn, n, nn); }

#include <sys/syscall.h>
#include <unistd.h>
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
/* pidfd_open(2) (Linux 5.3): a descriptor that polls readable when the process ends. glibc 2.36
   has a wrapper, but the raw call also builds against older headers. Close-on-exec by default. */
int kiosk_pidfd_open(int pid) { return (int)syscall(SYS_pidfd_open, pid, 0); }

#include <time.h>
#include <sys/resource.h>

/* CLOCK_MONOTONIC when the program's constructors ran: after the dynamic loader and the shared
   libraries' constructors, before Swift's main (start-up measurements split there). */
static unsigned long long kiosk_start_ns;
static long kiosk_start_faults;

__attribute__((constructor)) static void kiosk_note_start(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    kiosk_start_ns = (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
    kiosk_start_faults = kiosk_page_faults();
}

long kiosk_page_faults(void) {
    struct rusage u;
    if (getrusage(RUSAGE_SELF, &u) != 0) return -1;
    return u.ru_minflt + u.ru_majflt;
}

long kiosk_process_start_page_faults(void) { return kiosk_start_faults; }

unsigned long long kiosk_process_start_ns(void) { return kiosk_start_ns; }

#ifdef __GLIBC__
#include <malloc.h>
int kiosk_malloc_set_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 0 : -1; }
int kiosk_malloc_trim(void) { return malloc_trim(0); }
#else
int kiosk_malloc_set_mmap_threshold(int bytes) { (void)bytes; return -1; }
int kiosk_malloc_trim(void) { return -1; }
#endif

/* SO_PEERGROUPS (Linux 4.13): the peer's supplementary groups as the kernel recorded them at
   connect(2) — no /proc read, so no pid reuse. */
int kiosk_peer_groups(int fd, unsigned int *groups, int capacity) {
    socklen_t n = (socklen_t)(capacity * sizeof(unsigned int));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &n) != 0) {
        if (errno == ERANGE) return -2 - (int)(n / sizeof(unsigned int));
        return -1;
    }
    return (int)(n / sizeof(unsigned int));
}

#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <stdio.h>

struct kiosk_open_as_request {
    const char *path;
    int as_user;
    unsigned int uid, gid;
    const unsigned int *groups;
    int group_count;
    int fd;
    int error;
    int not_regular;
    struct stat st;
};

/* On its own thread: the thread's file-system identity becomes the client's (raw setgroups,
   setfsgid, setfsuid: per thread, unlike glibc's wrappers, which change every thread of the
   process; a change of fsuid from 0 also drops the thread's CAP_DAC_OVERRIDE and
   CAP_DAC_READ_SEARCH), then the path is looked up (O_PATH: nothing is opened for reading, so
   a device or a FIFO is never opened), the descriptor fstat'ed, and only a regular file opened
   for reading, again through the same descriptor (/proc/self/fd/N: the same inode, with the
   client's permission checked), so no path swap between the check and the open counts. The
   thread ends with its identity; the process's is never changed. */
static void *kiosk_open_as_thread(void *arg) {
    struct kiosk_open_as_request *r = arg;
    if (r->as_user) {
        if (syscall(SYS_setgroups, (size_t)r->group_count, r->groups) != 0) { r->error = errno; return NULL; }
        syscall(SYS_setfsgid, r->gid);
        syscall(SYS_setfsuid, r->uid);
        /* setfsuid/setfsgid report no error: ask back (-1 changes nothing and returns the current). */
        if ((unsigned int)syscall(SYS_setfsuid, -1) != r->uid || (unsigned int)syscall(SYS_setfsgid, -1) != r->gid) {
            r->error = EPERM;
            return NULL;
        }
    }
    int p = open(r->path, O_PATH | O_CLOEXEC);
    if (p < 0) { r->error = errno; return NULL; }
    if (fstat(p, &r->st) != 0) { r->error = errno; close(p); return NULL; }
    if (!S_ISREG(r->st.st_mode)) { r->not_regular = 1; close(p); return NULL; }
    char again[64];
    snprintf(again, sizeof again, "/proc/self/fd/%d", p);
    int fd = open(again, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    int e = errno;
    if (fd < 0 && e == ENOENT && !r->as_user) {
        /* No /proc (a chroot, an early boot before it is mounted): with this process's own rights
           (the command line's and the board file's pictures) the path is opened again, and kept
           only if it is the very file checked. A client's picture is never read without /proc. */
        fd = open(r->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        e = errno;
        struct stat again_st;
        if (fd >= 0 && (fstat(fd, &again_st) != 0 || again_st.st_dev != r->st.st_dev || again_st.st_ino != r->st.st_ino)) {
            close(fd);
            fd = -1;
            e = EAGAIN;
        }
    }
    close(p);
    if (fd < 0) { r->error = e; return NULL; }
    r->fd = fd;
    return NULL;
}

int kiosk_open_regular_as(const char *path, int as_user, unsigned int uid, unsigned int gid,
                          const unsigned int *groups, int group_count, struct stat *st, int *not_regular) {
    struct kiosk_open_as_request r = {
        .path = path, .as_user = as_user, .uid = uid, .gid = gid, .groups = groups,
        .group_count = group_count, .fd = -1, .error = 0, .not_regular = 0,
    };
    if (r.as_user) {
        /* Only another user's identity needs a thread of its own (it ends with it); the
           process's own is used where it is, with no thread to start per picture. */
        pthread_t t;
        int e = pthread_create(&t, NULL, kiosk_open_as_thread, &r);
        if (e != 0) { errno = e; return -1; }
        pthread_join(t, NULL);
    } else {
        kiosk_open_as_thread(&r);
    }
    *not_regular = r.not_regular;
    if (r.not_regular) { *st = r.st; errno = EINVAL; return -1; }
    if (r.fd < 0) { errno = r.error; return -1; }
    *st = r.st;
    return r.fd;
}

int kiosk_memfd(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

/* chown and chmod of the socket file at `path` that this process bound, never through a
   symbolic link: the path is looked up without following one (O_PATH | O_NOFOLLOW), must be a
   socket, and is changed through that descriptor (fchownat with AT_EMPTY_PATH; chmod of
   /proc/self/fd/N, the same inode). A swap of the path for a link to another file is refused. */
int kiosk_set_socket_owner_mode(const char *path, int set_group, unsigned int gid, unsigned int mode, int *not_socket) {
    int p = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (p < 0) return -1;
    struct stat st;
    if (fstat(p, &st) != 0) { int e = errno; close(p); errno = e; return -1; }
    if (!S_ISSOCK(st.st_mode)) { *not_socket = 1; close(p); errno = EINVAL; return -1; }
    if (set_group && fchownat(p, "", (uid_t)-1, gid, AT_EMPTY_PATH) != 0) { int e = errno; close(p); errno = e; return -1; }
    char again[64];
    snprintf(again, sizeof again, "/proc/self/fd/%d", p);
    if (chmod(again, mode) != 0) { int e = errno; close(p); errno = e; return -1; }
    close(p);
    return 0;
}
