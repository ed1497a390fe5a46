/*
 * stamp-exec.c — runs a program with KIOSK_EXEC_T0_NS set to CLOCK_MONOTONIC taken just before
 * execv, so that program can report exec → first frame to the microsecond (kiosk-hud show and
 * modeset both read it), without the fork of the shell that /proc/self/stat's starttime counts.
 *
 *   stamp-exec PROGRAM [ARGS...]
 *
 * Build: gcc -O2 stamp-exec.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: stamp-exec PROGRAM [ARGS...]\n"); return 2; }
    struct timespec t;
    char buf[32];
    clock_gettime(CLOCK_MONOTONIC, &t);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec);
    setenv("KIOSK_EXEC_T0_NS", buf, 1);
    execv(argv[1], argv + 1);
    perror(argv[1]);
    return 127;
}
