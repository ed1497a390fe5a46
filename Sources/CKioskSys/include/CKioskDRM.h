// Kernel ABI constants for KioskDRM that Swift cannot import (function-like macros such as
// DRM_IOWR(...) and fourcc_code(...)), as `static const` values, plus the kernel structs the DRM,
// fbdev, VT, signalfd and uevent code uses. Headers: libdrm-dev's copy of the kernel UAPI
// (<libdrm/drm.h> etc.; Debian's linux-libc-dev does not ship <drm/...>) and linux-libc-dev.
#ifndef CKIOSKDRM_H
#define CKIOSKDRM_H

#include <libdrm/drm.h>
#include <libdrm/drm_mode.h>
#include <libdrm/drm_fourcc.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/netlink.h>
#include <sys/signalfd.h>

// DRM core
static const unsigned long KIOSK_DRM_IOCTL_VERSION = DRM_IOCTL_VERSION;
static const unsigned long KIOSK_DRM_IOCTL_GET_CAP = DRM_IOCTL_GET_CAP;
static const unsigned long KIOSK_DRM_IOCTL_SET_CLIENT_CAP = DRM_IOCTL_SET_CLIENT_CAP;
static const unsigned long KIOSK_DRM_IOCTL_SET_MASTER = DRM_IOCTL_SET_MASTER;
static const unsigned long KIOSK_DRM_IOCTL_DROP_MASTER = DRM_IOCTL_DROP_MASTER;

// KMS (legacy API: what libdrm's drmMode* functions issue)
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETRESOURCES = DRM_IOCTL_MODE_GETRESOURCES;
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETCRTC = DRM_IOCTL_MODE_GETCRTC;
static const unsigned long KIOSK_DRM_IOCTL_MODE_SETCRTC = DRM_IOCTL_MODE_SETCRTC;
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETENCODER = DRM_IOCTL_MODE_GETENCODER;
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETCONNECTOR = DRM_IOCTL_MODE_GETCONNECTOR;
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETPROPERTY = DRM_IOCTL_MODE_GETPROPERTY;
static const unsigned long KIOSK_DRM_IOCTL_MODE_GETPROPBLOB = DRM_IOCTL_MODE_GETPROPBLOB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_RMFB = DRM_IOCTL_MODE_RMFB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_PAGE_FLIP = DRM_IOCTL_MODE_PAGE_FLIP;
static const unsigned long KIOSK_DRM_IOCTL_MODE_DIRTYFB = DRM_IOCTL_MODE_DIRTYFB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;
static const unsigned long KIOSK_DRM_IOCTL_MODE_ADDFB2 = DRM_IOCTL_MODE_ADDFB2;

static const unsigned int KIOSK_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
static const unsigned int KIOSK_DRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
static const unsigned int KIOSK_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;

// fbdev
static const unsigned long KIOSK_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
static const unsigned long KIOSK_FBIOPUT_VSCREENINFO = FBIOPUT_VSCREENINFO;
static const unsigned long KIOSK_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
static const unsigned long KIOSK_FBIOPAN_DISPLAY = FBIOPAN_DISPLAY;
static const unsigned long KIOSK_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;

// Virtual terminals
static const unsigned long KIOSK_VT_GETSTATE = VT_GETSTATE;
static const unsigned long KIOSK_VT_GETMODE = VT_GETMODE;
static const unsigned long KIOSK_VT_SETMODE = VT_SETMODE;
static const unsigned long KIOSK_VT_RELDISP = VT_RELDISP;
static const unsigned long KIOSK_KDGETMODE = KDGETMODE;
static const unsigned long KIOSK_KDSETMODE = KDSETMODE;

#endif
