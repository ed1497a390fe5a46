#include "CKioskSys.h"
#include <sys/ioctl.h>

int kiosk_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
