#define _GNU_SOURCE
#include "CKioskSys.h"
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
