// C helpers for KioskSys: what Swift cannot call directly (variadic functions).
#ifndef CKIOSKSYS_H
#define CKIOSKSYS_H

/// ioctl(2) with a pointer argument (ioctl itself is variadic, so Swift cannot call it).
int kiosk_ioctl(int fd, unsigned long request, void *arg);

#include "CKioskDRM.h"

#endif
