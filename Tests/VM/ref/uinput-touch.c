// uinput-touch — a scripted touch screen (or keyboard) for the real-kernel input tests.
//
//   uinput-touch [--name NAME] [--max N] [--keys]   < commands
//
// Creates a uinput device and prints "device /dev/input/eventN" (stdout, flushed) once its node
// exists, then reads commands from stdin, one per line, each sent as one evdev frame
// (SYN_REPORT), and prints "done" after each:
//   down X Y [SLOT]   a finger touches at device coordinates X Y (slot default 0)
//   move X Y [SLOT]   it moves
//   up [SLOT]         it lifts
//   tap X Y           down, 20 ms, up
//   key CODE          (with --keys) press and release a Linux key code, e.g. 28 = KEY_ENTER
//   sleep MS          wait
//   quit              (or end of input) destroy the device and exit
//
// The touch screen: INPUT_PROP_DIRECT, BTN_TOUCH, ABS_X/ABS_Y (the first finger, for single-touch
// readers), ABS_MT_SLOT (0..9), ABS_MT_TRACKING_ID, ABS_MT_POSITION_X/Y; coordinates 0..N for
// --max N (default 4095), so a panel W pixels wide sees X at X·W/(N+1) in libinput's
// _transformed coordinates. --keys instead makes a keyboard with every key code 1..255.
// Build: gcc -O2 -Wall -o uinput-touch uinput-touch.c (no libraries). Needs /dev/uinput.
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define SLOTS 10

static int fd = -1;
static int active[SLOTS];
static int next_id = 1;

static void die(const char *what) {
    fprintf(stderr, "uinput-touch: %s: %s\n", what, strerror(errno));
    exit(1);
}

static void emit(int type, int code, int value) {
    struct input_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = type;
    ev.code = code;
    ev.value = value;
    if (write(fd, &ev, sizeof ev) != (ssize_t)sizeof ev) die("write");
}

static void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {}
}

static int count_active(void) {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) n += active[i] != 0;
    return n;
}

static int first_active(void) {
    for (int i = 0; i < SLOTS; i++)
        if (active[i]) return i;
    return -1;
}

static void touch_at(int slot, int x, int y, int is_down) {
    int was_touching = count_active() > 0;
    emit(EV_ABS, ABS_MT_SLOT, slot);
    if (is_down) {
        active[slot] = next_id;
        emit(EV_ABS, ABS_MT_TRACKING_ID, next_id++);
    }
    emit(EV_ABS, ABS_MT_POSITION_X, x);
    emit(EV_ABS, ABS_MT_POSITION_Y, y);
    if (is_down && !was_touching) emit(EV_KEY, BTN_TOUCH, 1);
    if (first_active() == slot) {
        emit(EV_ABS, ABS_X, x);
        emit(EV_ABS, ABS_Y, y);
    }
    emit(EV_SYN, SYN_REPORT, 0);
}

static void lift(int slot) {
    emit(EV_ABS, ABS_MT_SLOT, slot);
    emit(EV_ABS, ABS_MT_TRACKING_ID, -1);
    active[slot] = 0;
    if (count_active() == 0) emit(EV_KEY, BTN_TOUCH, 0);
    emit(EV_SYN, SYN_REPORT, 0);
}

static void set_abs(int code, int min, int max) {
    struct uinput_abs_setup a;
    memset(&a, 0, sizeof a);
    a.code = code;
    a.absinfo.minimum = min;
    a.absinfo.maximum = max;
    if (ioctl(fd, UI_ABS_SETUP, &a) < 0) die("UI_ABS_SETUP");
}

int main(int argc, char **argv) {
    const char *name = "kiosk-uinput-touch";
    int max = 4095, keys = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--name") && i + 1 < argc) name = argv[++i];
        else if (!strcmp(argv[i], "--max") && i + 1 < argc) max = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--keys")) keys = 1;
        else { fprintf(stderr, "usage: uinput-touch [--name NAME] [--max N] [--keys] < commands\n"); return 2; }
    }
    fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC);
    if (fd < 0) die("open /dev/uinput");
    if (keys) {
        if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) die("UI_SET_EVBIT");
        for (int k = 1; k < 256; k++) ioctl(fd, UI_SET_KEYBIT, k);
    } else {
        if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0 || ioctl(fd, UI_SET_KEYBIT, BTN_TOUCH) < 0 ||
            ioctl(fd, UI_SET_EVBIT, EV_ABS) < 0 || ioctl(fd, UI_SET_PROPBIT, INPUT_PROP_DIRECT) < 0)
            die("UI_SET_*BIT");
        int codes[] = {ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X, ABS_MT_POSITION_Y};
        for (unsigned i = 0; i < sizeof codes / sizeof codes[0]; i++)
            if (ioctl(fd, UI_SET_ABSBIT, codes[i]) < 0) die("UI_SET_ABSBIT");
        set_abs(ABS_X, 0, max);
        set_abs(ABS_Y, 0, max);
        set_abs(ABS_MT_POSITION_X, 0, max);
        set_abs(ABS_MT_POSITION_Y, 0, max);
        set_abs(ABS_MT_SLOT, 0, SLOTS - 1);
        set_abs(ABS_MT_TRACKING_ID, 0, 65535);
    }
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_VIRTUAL;
    setup.id.vendor = 0x4b48;  // "KH"
    setup.id.product = keys ? 2 : 1;
    snprintf(setup.name, sizeof setup.name, "%s", name);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) die("UI_DEV_SETUP");
    if (ioctl(fd, UI_DEV_CREATE) < 0) die("UI_DEV_CREATE");

    // /sys/class/input/inputN/eventM -> /dev/input/eventM (devtmpfs makes the node).
    char sysname[64] = "", dir[128], node[300] = "";
    if (ioctl(fd, UI_GET_SYSNAME(sizeof sysname), sysname) < 0) die("UI_GET_SYSNAME");
    snprintf(dir, sizeof dir, "/sys/class/input/%s", sysname);
    for (int tries = 0; tries < 200 && !node[0]; tries++) {
        DIR *d = opendir(dir);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (!strncmp(e->d_name, "event", 5)) snprintf(node, sizeof node, "/dev/input/%s", e->d_name);
        if (d) closedir(d);
        if (node[0] && access(node, F_OK) != 0) node[0] = 0;
        if (!node[0]) sleep_ms(10);
    }
    if (!node[0]) { fprintf(stderr, "uinput-touch: no event node under %s\n", dir); return 1; }
    printf("device %s\n", node);
    fflush(stdout);

    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        char cmd[16] = "";
        int a = 0, b = 0, c = 0;
        int n = sscanf(line, "%15s %d %d %d", cmd, &a, &b, &c);
        if (n < 1) continue;
        if (!strcmp(cmd, "quit")) break;
        if (!strcmp(cmd, "down") && n >= 3) touch_at(n >= 4 ? c : 0, a, b, 1);
        else if (!strcmp(cmd, "move") && n >= 3) touch_at(n >= 4 ? c : 0, a, b, 0);
        else if (!strcmp(cmd, "up")) lift(n >= 2 ? a : 0);
        else if (!strcmp(cmd, "tap") && n >= 3) { touch_at(0, a, b, 1); sleep_ms(20); lift(0); }
        else if (!strcmp(cmd, "key") && n >= 2) {
            emit(EV_KEY, a, 1); emit(EV_SYN, SYN_REPORT, 0);
            emit(EV_KEY, a, 0); emit(EV_SYN, SYN_REPORT, 0);
        }
        else if (!strcmp(cmd, "sleep") && n >= 2) sleep_ms(a);
        else { fprintf(stderr, "uinput-touch: bad command: %s", line); continue; }
        printf("done\n");
        fflush(stdout);
    }
    ioctl(fd, UI_DEV_DESTROY);
    close(fd);
    return 0;
}
