// Generated from Boards/*.toml by Tests/KioskBoardsTests/GeneratedFilesTests.swift: do not edit.
// `KIOSK_RECORD_PROFILES=1 swift test --filter GeneratedFilesTests` writes it again.
// The board profiles built into kiosk-hud (BoardCatalog): each file's text, byte for byte, and
// its [match] rules read ahead of time, so that detection parses only the profile it chooses.

extension ShippedBoards {
    static let generated: [ShippedBoard] = [
        ShippedBoard(
            name: "beagleplay-hdmi",
            match: BoardMatch(compatible: ["beagle,am625-beagleplay"], drmDriver: ["tidss"], connector: ["HDMI-A-1"]),
            text: #"""
# BeagleBoard.org BeaglePlay (TI AM625: four Cortex-A53 at up to 1.4 GHz, 2 GB) with an HDMI
# screen, no touch: the HUD as a boot splash or an update screen on a monitor or a TV. The
# AM625's display controller (DSS) drives the board's HDMI port through an ITE IT66121
# transmitter; mainline's device tree describes the whole chain, no overlay needed.
#
# Architecture: arm64 (BeagleBoard.org's Debian images for it are arm64; see Boards/README.md).
#
# Where the numbers come from:
# - compatible beagle,am625-beagleplay: k3-am625-beagleplay.dts (arch/arm64/boot/dts/ti; model
#   "BeagleBoard.org BeaglePlay", then "ti,am625").
# - tidss: the DSS's DRM driver (drivers/gpu/drm/tidss, platform driver "tidss", "ti,am625-dss").
# - HDMI-A-1: the device tree wires the DSS's second video port (DPI, 24 bits) to the IT66121
#   (compatible "ite,it66121", drivers/gpu/drm/bridge/ite-it66121.c) and that to an
#   "hdmi-connector" of type "a"; tidss makes the connector from that bridge chain: HDMI-A-1.
#   The first video port (OLDI/LVDS) is for a panel, which needs an overlay of its own; that
#   panel's connector is LVDS-1, not this profile's.
# - 1920x1080: the IT66121 takes at most 148.5 MHz on its 24-bit input (it66121_bridge_mode_valid),
#   which is 1080p60's pixel clock; a screen without that mode gets its preferred one.
# - Scale: not set, so it comes from the screen's physical size in its EDID (about 135 DPI a
#   point, as Plymouth does): 1 on a 21.5" 1080p monitor (102 DPI).
# - Light on drawing: the A53s draw every pixel (kiosk-hud does not use the GPU); a 1080p frame
#   is 8 MB, so no blur and no dimmed background (each is a pass over the whole frame), and a
#   short fade.
name = "beagleplay-hdmi"

[match]
compatible = ["beagle,am625-beagleplay"]
drm_driver = ["tidss"]
connector = ["HDMI-A-1"]

[display]
# tidss is a module udev loads; if the boot loader left a framebuffer (simpledrm) the HUD starts
# there and moves to tidss's card once it is up, and to no other card.
switch = "tidss"
size = "1920x1080"
format = "xrgb8888"
connectors = ["HDMI-A-1"]
mode = "1920x1080"

[style]
background = "none"
bezel = "solid"

[timing]
animation = "fade"
animation_duration = 0.2

[motion]
# No accelerometer.
depth = 0.0

"""#),
        ShippedBoard(
            name: "generic",
            match: BoardMatch(),
            text: #"""
# KioskHUD board profile: generic (no real board; the offscreen default, also built into kiosk-hud).
# Generated from the settings table (KioskBoards, HUDSettingsTable.swift): every key with its default.
# Sizes are in points; scale turns them into pixels. Colours are #RRGGBB or #RRGGBBAA.
# Architecture: any kiosk-hud runs on, amd64 or arm64 (see Boards/README.md).

# The board this profile is for.
name = "generic"

[match]
# Device-tree compatible entries, whole (/proc/device-tree/compatible); --board auto: one of them
# must be there.
# compatible = ["raspberrypi,4-model-b", "raspberrypi,3-model-b"]
# Parts of the board's model (/proc/device-tree/model, or the DMI product name on x86); one must
# be in it.
# model = ["Raspberry Pi 4"]
# DRM drivers, whole: the DRM driver's own name (vc4, as [display] switch and the log name it) or
# its device's sysfs driver (vc4-drm, where /sys/class/drm/cardN/device/driver links); one card
# must have one.
# drm_driver = ["vc4"]
# DRM connector names, whole (cardN-NAME in /sys/class/drm); one must be there and not
# disconnected.
# connector = ["DSI-1"]
# Display modes WIDTHxHEIGHT; a connector (one of connector's, if given) must list one.
# mode = ["720x1280"]
# Parts of IIO device names (/sys/bus/iio/devices/iio:deviceN/name); one device must have one.
# iio = ["mpu6050", "lis3dh"]
# Parts of input device names (/sys/class/input/inputN/name); one device must have one.
# input = ["ft5x06"]

[display]
# The underlay's picture, under the HUD (PNG), scaled to the canvas as underlay_fit says, over the
# underlay colour.
# underlay_image = "/etc/kiosk-hud/pictures/background.png"
# Canvas size WIDTHxHEIGHT in pixels (offscreen; on a real display its mode decides).
size = "800x480"
# Pixels per point (e.g. 2); default: chosen from the panel's physical size (about 135 DPI a
# point, as Plymouth does), 1 offscreen. (pixels per point above 0 up to 8)
# scale = 1.5
# Pixel format of the frame.
format = "xrgb8888"
# The underlay's colour: under the HUD, and under the underlay picture's transparent parts.
underlay_color = "#000000"
# How the underlay picture covers the screen: fill (aspect kept, cropped), fit (aspect kept,
# letterboxed on the underlay colour), center (not scaled, cropped if larger) or stretch (aspect
# ignored).
underlay_fit = "fill"
# DRM card; default: the first /dev/dri/card* with dumb buffers.
# card = "/dev/dri/card0"
# Only these connectors (repeat the option for more); default: every connected one.
# connectors = ["HDMI-A-1"]
# Display mode WIDTHxHEIGHT[@HZ]; default: preferred, else active, else first.
# mode = "800x480@60"
# Rotation of the picture on the panel, clockwise (turns the touch with it); default: the panel's
# orientation property. (0, 90, 180 or 270)
# rotation = 0
# When no display exists yet (early boot), wait up to this many seconds for one (kernel uevents)
# instead of failing; the control socket answers meanwhile. 0: do not wait; default: 8 for the
# daemon, 0 for the others. (seconds from 0 to 600)
# wait = 8
# Which display to be on as devices come and go at boot (without card): first — start on the first
# usable one (simpledrm, efifb) and move to the board's real DRM driver when it loads; wait-real —
# draw nothing until a real DRM card is there or wait-real-timeout passes (Plymouth's way); a
# driver's name — move only to that driver's card (its DRM name, vc4, or its sysfs driver,
# vc4-drm: either works, as in [match] drm_driver).
switch = "first"
# With display-switch = wait-real: how long to wait for the real DRM card before drawing on what
# is there (Plymouth's DeviceTimeout). (seconds from 0 to 600)
wait_real_timeout = 8.0
# The kernel modules the display needs, its whole chain (DRM driver, bridge, panel, its regulator,
# the I2C bus to them): the initramfs-tools hook puts them in the initramfs, so that the HUD is on
# the display before the root file system (docs/initramfs.md).
# modules = ["vc4", "tc358762", "panel-simple"]

[touch]
# Touch calibration matrix a,b,c,d,e,f (libinput's), or rotate-90/180/270 for a sensor mounted
# rotated; default: udev's LIBINPUT_CALIBRATION_MATRIX.
# matrix = "1, 0, 0, 0, 1, 0"
# Only this touch device (part of its name or sysname).
# device = "ft5x06"
# Keys that press the button (Linux key codes): Enter, Space, Escape, keypad Enter.
keys = [28, 57, 1, 96]
# Report taps outside the bezel (show: exit 11) instead of ignoring them.
tap_outside = false

[fonts]
# The font for all text.
primary = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
# Fonts tried in order for characters the primary font lacks (missing files are skipped).
fallbacks = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
  "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
  "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
]

[style]
# light (grey bezel, black content) or dark (dark bezel, white content); sets both colours.
theme = "light"
# Space between the bezel and the screen's edges. (points from 0 to 1000)
margin = 20.0
# Space between the bezel's parts. (points from 0 to 1000)
padding = 4.0
# The bezel's corner radius. (points from 0 to 1000)
corner_radius = 5.0
# The label's font size. (a font size from 1 to 500)
label_size = 16.0
# The details label's font size. (a font size from 1 to 500)
details_size = 12.0
# The button's font size. (a font size from 1 to 500)
button_size = 12.0
# Colour of the indicator, text and button.
content_color = "#000000B3"
# Colour of the bezel.
bezel_color = "#CCCCCC99"
# How far the blurred bezel blurs what is under it. (points from 0 to 100)
blur_radius = 10.0
# solid, or blur (what is under the bezel shows through, blurred).
bezel = "solid"
# Colour laid over the screen by background = dim.
dim_color = "#00000080"
# What the HUD lays over the screen: nothing, a dim colour, or a radial gradient.
background = "none"
# A logo picture (PNG), placed as logo_placement says, at most logo_size high; empty: none.
# logo = "/usr/share/kiosk-hud/logo.png"
# Where the logo goes: above (above the bezel, centred), alone (centred, the progress bar and the
# label under it, no bezel: a boot splash; a button, text and notices keep the bezel) or none.
logo_placement = "above"
# The logo's largest height (aspect kept; never more than twice the picture's own size). (points
# from 0 to 1000)
logo_size = 64.0

[timing]
# A HUD hidden again within this time is never shown (no flash for quick work). (seconds from 0 to
# 3600)
grace_time = 0.0
# Once shown, the HUD stays at least this long. (seconds from 0 to 3600)
min_show_time = 0.0
# How the HUD appears and goes.
animation = "fade"
# How long it takes. (seconds from 0 to 10)
animation_duration = 0.3

[motion]
# The accelerometer: iio:deviceN, a label or a name; default: the one labelled accel-display, else
# the first.
# accel = "accel-display"
# Mount matrix, rows (panel = M · reading); default: udev's ACCEL_MOUNT_MATRIX, then sysfs.
# mount_matrix = "1, 0, 0; 0, 1, 0; 0, 0, 1"
# How far the bezel slides each way as the board tilts (0: off). (points from 0 to 100)
depth = 10.0
# Accelerometer samples per second. (samples per second from 0.1 to 1000)
rate = 30.0
# Tilt low-pass time constant. (seconds from 0 to 10)
time_constant = 0.15
# Tilt dead zone. (degrees from 0 to 45)
dead_zone = 1.5
# Attitude with the bezel centred: resting (however the board stands at start) or face-up.
neutral = "resting"
# No tilt motion.
reduce_motion = false

[plymouth]
# Where Plymouth's boot status messages (each unit systemd starts, `plymouth update --status`) go:
# the details line, or nowhere.
boot_status = "details"
# The label in Plymouth's boot-up mode (plymouth change-mode --boot-up); default: "Starting…" in
# the [words] language.
# boot_up_label = "Please wait"
# The HUD's mode in Plymouth's boot-up mode.
boot_up_mode = "bar"
# The label in Plymouth's shutdown mode (plymouth change-mode --shutdown); default: "Shutting
# down…" in the [words] language.
# shutdown_label = "Please wait"
# The HUD's mode in Plymouth's shutdown mode.
shutdown_mode = "indeterminate"
# The label in Plymouth's reboot mode (plymouth change-mode --reboot); default: "Restarting…" in
# the [words] language.
# reboot_label = "Please wait"
# The HUD's mode in Plymouth's reboot mode.
reboot_mode = "indeterminate"
# The label in Plymouth's updates mode (plymouth change-mode --updates); default: "Installing
# updates…" in the [words] language.
# updates_label = "Please wait"
# The HUD's mode in Plymouth's updates mode.
updates_mode = "bar"
# The label in Plymouth's system-upgrade mode (plymouth change-mode --system-upgrade); default:
# "Upgrading the system…" in the [words] language.
# system_upgrade_label = "Please wait"
# The HUD's mode in Plymouth's system-upgrade mode.
system_upgrade_mode = "bar"
# The label in Plymouth's firmware-upgrade mode (plymouth change-mode --firmware-upgrade);
# default: "Updating firmware…" in the [words] language.
# firmware_upgrade_label = "Please wait"
# The HUD's mode in Plymouth's firmware-upgrade mode.
firmware_upgrade_mode = "bar"

[words]
# The language of the texts the HUD shows by itself (run's Cancel and notices, Plymouth's labels):
# auto (the system's: LC_ALL, LC_MESSAGES, LANG, else /etc/default/locale; English when none is
# shipped) or en, de, fr, es, it, nl, pl, pt, ja, zh.
language = "auto"
# Instead of "Cancel" in the [words] language.
# cancel = "Abbrechen"
# Instead of "Tap again to cancel" in the [words] language.
# confirm_cancel = "Zum Abbrechen erneut tippen"
# Instead of "Cancelling…" in the [words] language.
# cancelling = "Wird abgebrochen…"
# Instead of "Cancelled" in the [words] language.
# cancelled = "Abgebrochen"
# Instead of "Done" in the [words] language.
# done = "Fertig"
# Instead of "Failed (exit status {status})" in the [words] language ({status} where the value
# goes).
# failed_status = "Fehlgeschlagen (Exit-Status {status})"
# Instead of "Failed (killed by {signal})" in the [words] language ({signal} where the value
# goes).
# failed_signal = "Fehlgeschlagen (beendet durch {signal})"
# Instead of "Cannot run {command}: {reason}" in the [words] language ({command} and {reason}
# where the value goes).
# cannot_run = "{command} kann nicht ausgeführt werden: {reason}"
# Instead of "Starting {unit}…" in the [words] language ({unit} where the value goes).
# starting_unit = "{unit} wird gestartet…"
# Instead of "Installed" in the [words] language.
# installed = "Installiert"
# Instead of "Update failed: {reason}" in the [words] language ({reason} where the value goes).
# update_failed = "Update fehlgeschlagen: {reason}"
# Instead of "Update interrupted" in the [words] language.
# update_interrupted = "Update unterbrochen"
# Instead of "The update service has stopped; waiting for it…" in the [words] language.
# updater_stopped = "Der Update-Dienst wurde beendet; warte auf ihn…"
# Instead of "Step {step} of {steps}" in the [words] language ({step} and {steps} where the value
# goes).
# update_step = "Schritt {step} von {steps}"

"""#),
        ShippedBoard(
            name: "rk3566-accelerometer",
            match: BoardMatch(compatible: ["rockchip,rk3566"], iio: ["mpu6050", "lis3dh"]),
            text: #"""
# A Rockchip RK3566 board (Radxa Zero 3W/3E, Pine64 Quartz64 model A or B …) with an
# accelerometer on I2C — an InvenSense MPU-6050 or an ST LIS3DH breakout — fixed to the back of the
# display, so the HUD tilts as the device is moved. Display: HDMI (or DSI) through rockchip-drm.
#
# Architecture: arm64 (see Boards/README.md).
#
# Where the numbers come from:
# - compatible rockchip,rk3566: every RK3566 board's device tree (e.g. rk3566-radxa-zero-3w.dts,
#   rk3566-quartz64-a.dts) lists the SoC.
# - The sensor's device-tree node: compatible "invensense,mpu6050" (driver inv_mpu6050, IIO name
#   "mpu6050") or "st,lis3dh-accel" (driver st_accel, IIO name "lis3dh"), on the I2C bus the
#   header's pins are muxed to.
# - The mount matrix (panel axes = M · sensor axes; x right, y up, z out of the screen, as in the
#   kernel's mount-matrix binding): a breakout on the back of the panel, chip facing away from the
#   viewer, its printed Y arrow pointing up. Turned half round about y, its x and z run backwards:
#   rows "-1, 0, 0; 0, 1, 0; 0, 0, -1" (the axes printed on GY-521 and Adafruit LIS3DH boards are
#   the chips' own: MPU-6000/6050 product specification §7.8, LIS3DH datasheet figure 2). Another
#   mounting needs other rows; with a mount-matrix in the device tree, delete mount_matrix here
#   and kiosk-hud reads the sensor's in_mount_matrix.
# - 30 samples a second: three register reads each over 400 kHz I2C is well under 1 % of the bus.
# - Scale: from the screen's physical size (not set).
name = "rk3566-accelerometer"

[match]
compatible = ["rockchip,rk3566"]
iio = ["mpu6050", "lis3dh"]

[display]
size = "1920x1080"
format = "xrgb8888"

[style]
background = "dim"

[motion]
mount_matrix = "-1, 0, 0; 0, 1, 0; 0, 0, -1"
depth = 10.0
rate = 30.0
time_constant = 0.15
dead_zone = 1.5
neutral = "resting"

"""#),
        ShippedBoard(
            name: "rpi-touch-display-2",
            match: BoardMatch(compatible: ["raspberrypi,5-model-b", "raspberrypi,5-compute-module", "raspberrypi,4-model-b", "raspberrypi,4-compute-module"], connector: ["DSI-1", "DSI-2"], mode: ["720x1280"]),
            text: #"""
# Raspberry Pi 5 (or 4) with the Raspberry Pi Touch Display 2: a 7" 720x1280 portrait DSI panel
# (Ilitek ILI9881C controller) shown landscape, with capacitive touch. Overlay
# vc4-kms-dsi-ili9881-7inch (loaded by the firmware with display_auto_detect=1; add
# ",dsi0" on the other port).
#
# Architecture: arm64: Raspberry Pi OS 64-bit (see Boards/README.md).
#
# Where the numbers come from:
# - 720x1280 on a 7" diagonal (about 87 x 155 mm): 720 px / 87 mm = 210 DPI. Scale 1.5 keeps a
#   point about the size it has on a 135 DPI screen (Plymouth's rule would pick 2 from 192 DPI,
#   which makes the HUD large on a 7" screen used at arm's length).
# - Connector DSI-1 or DSI-2: the Pi 5's two MIPI ports (the overlay's dsi0 parameter picks the
#   other one); mode 720x1280 tells this panel from the 800x480 Touch Display on the same ports.
# - Rotation: the panel scans out portrait (its mode is 720x1280); the picture is 1280x720,
#   turned 90° clockwise onto it. Upside down in your case or stand? 270. The overlay's own
#   rotation= parameter sets the panel's orientation property instead: then leave rotation out
#   here (kiosk-hud follows the property). Touch comes in panel coordinates and is turned with
#   the picture.
name = "rpi-touch-display-2"

[match]
compatible = ["raspberrypi,5-model-b", "raspberrypi,5-compute-module", "raspberrypi,4-model-b", "raspberrypi,4-compute-module"]
connector = ["DSI-1", "DSI-2"]
mode = ["720x1280"]

[display]
# The firmware's framebuffer (simpledrm) is on screen first; the HUD moves to vc4's card when
# the KMS driver loads (the display switch).
switch = "vc4"
size = "1280x720"
scale = 1.5
format = "xrgb8888"
connectors = ["DSI-1", "DSI-2"]
rotation = 90
# The display's whole module chain, for the initramfs (dist/initramfs-tools' hook): the overlay
# vc4-kms-dsi-ili9881-7inch puts the panel ("raspberrypi,dsi-7inch": panel-ilitek-ili9881c) on
# the DSI host — vc4's on a Pi 4, RP1's (drm-rp1-dsi) on a Pi 5 — with its reset and backlight
# PWM from the display board's microcontroller (rpi-panel-v2-regulator, on I2C at 0x45; the
# backlight is pwm_bl), reached on a Pi 4 through i2c0 (i2c-bcm2835, i2c-mux-pinctrl), on a Pi 5
# through RP1's I2C (i2c-designware-platform). A module this kernel has not got (the other Pi's)
# is one warning line from the hook.
modules = ["vc4", "drm-rp1-dsi", "panel-ilitek-ili9881c", "rpi-panel-v2-regulator", "pwm_bl", "i2c-bcm2835", "i2c-mux-pinctrl", "i2c-designware-platform"]

[touch]
keys = [28, 57, 1, 96]

[style]
background = "gradient"
bezel = "blur"
blur_radius = 10.0

[motion]
depth = 0.0

"""#),
        ShippedBoard(
            name: "rpi-touch-display",
            match: BoardMatch(compatible: ["raspberrypi,4-model-b", "raspberrypi,400", "raspberrypi,4-compute-module", "raspberrypi,3-model-b", "raspberrypi,3-model-b-plus", "raspberrypi,3-model-a-plus"], connector: ["DSI-1"], mode: ["800x480"]),
            text: #"""
# Raspberry Pi 4, 400, CM4 or 3 with the official 7" Touch Display (800x480 DSI panel, FT5406
# capacitive touch), on the KMS driver (Raspberry Pi OS: dtoverlay=vc4-kms-v3d, and the
# display's overlay vc4-kms-dsi-7inch, which the firmware loads by itself with display_auto_detect=1).
#
# Architecture: arm64: Raspberry Pi OS 64-bit, on the Pi 3 too (kiosk-hud has no 32-bit ARM
# build; see Boards/README.md).
#
# Where the numbers come from:
# - 800x480, 155 mm x 86 mm viewable: the display's product brief (Raspberry Pi Touch Display,
#   "Screen dimensions 194 x 110 x 20 mm, viewable 155 x 86 mm"). 800 px / 155 mm = 131 DPI:
#   scale 1 (Plymouth's rule, which kiosk-hud's automatic scale follows: 2 only from 192 DPI).
# - DSI-1: the connector vc4's DSI encoder registers (drivers/gpu/drm/vc4/vc4_dsi.c, panel
#   driver panel-raspberrypi-touchscreen or, with the newer overlay, the panel-simple/tc358762 pair).
# - Touch: the FT5406 behind the display's microcontroller, read by edt-ft5x06 through the
#   overlay's I2C ("generic ft5x06 (NN)" in /proc/bus/input/devices), or, on older firmware
#   setups, by rpi-ft5406 ("FT5406 memory based driver"). Its coordinates are the panel's own, so
#   no calibration; they turn with the picture (rotation below).
name = "rpi-touch-display"

[match]
# The boards (arch/arm/boot/dts/broadcom/bcm2711-rpi-*.dts, bcm2710-rpi-3-b*.dts: compatible).
compatible = ["raspberrypi,4-model-b", "raspberrypi,400", "raspberrypi,4-compute-module", "raspberrypi,3-model-b", "raspberrypi,3-model-b-plus", "raspberrypi,3-model-a-plus"]
connector = ["DSI-1"]
# The panel's only mode: tells it from the 720x1280 Touch Display 2 on the same connector.
mode = ["800x480"]

[display]
# The firmware's framebuffer (simpledrm) is on screen first; the HUD moves to vc4's card when
# the KMS driver loads (the display switch).
switch = "vc4"
size = "800x480"
scale = 1.0
format = "xrgb8888"
connectors = ["DSI-1"]
mode = "800x480"
# No rotation here: the panel's orientation property decides, as it does for the console and the
# compositor. Mounted upside down in a stand or case? The overlay's rotation=180
# (dtoverlay=vc4-kms-dsi-7inch,rotation=180 in config.txt) sets that property, and the picture
# and the touch turn together; `rotation = 180` here pins it whatever the panel says.
# Before vc4 the firmware's framebuffer (simpledrm, one connector "Unknown-1") is shown whole:
# connectors and mode below are vc4's.
# The display's whole module chain, for the initramfs (dist/initramfs-tools' hook): the overlay
# vc4-kms-dsi-7inch wires vc4's DSI encoder to a Toshiba TC358762 bridge (tc358762), that to the
# panel ("raspberrypi,7inch-dsi": panel-simple), both powered by the display board's ATtiny
# (rpi-panel-attiny-regulator, on I2C at 0x45; its bridge supply is a regulator-fixed, built
# into Raspberry Pi OS's kernel), reached through i2c0 (i2c-bcm2835) and its pin mux
# (i2c-mux-pinctrl). Without one of them vc4 waits for the panel and no DSI-1 appears.
modules = ["vc4", "tc358762", "panel-simple", "rpi-panel-attiny-regulator", "i2c-bcm2835", "i2c-mux-pinctrl"]

[touch]
keys = [28, 57, 1, 96]
tap_outside = false

[style]
background = "dim"
dim_color = "#00000080"

[timing]
grace_time = 0.5
min_show_time = 1.0
animation = "zoom"

[motion]
# No accelerometer on this board: the tilt effect stays off (one log line at start).
depth = 0.0

"""#),
        ShippedBoard(
            name: "rpi-zero2w-hdmi",
            match: BoardMatch(compatible: ["raspberrypi,model-zero-2-w"], connector: ["HDMI-A-1"]),
            text: #"""
# Raspberry Pi Zero 2 W with an HDMI screen (1080p), no touch: the HUD as a boot splash or an
# update screen on a TV or a monitor. KMS driver (dtoverlay=vc4-kms-v3d, Raspberry Pi OS's default).
#
# Architecture: arm64: Raspberry Pi OS 64-bit (Lite), not the 32-bit one (kiosk-hud has no 32-bit
# ARM build; see Boards/README.md).
#
# Where the numbers come from:
# - compatible raspberrypi,model-zero-2-w: bcm2710-rpi-zero-2-w.dts (and mainline's
#   bcm2837-rpi-zero-2-w.dts); model "Raspberry Pi Zero 2 W Rev 1.0".
# - HDMI-A-1: vc4's only HDMI connector on BCM2837 (drivers/gpu/drm/vc4/vc4_hdmi.c); the HVS of this
#   chip tops out at 1920x1080@60, so 1080p is asked for (a screen without it gets its preferred mode).
# - Scale: not set, so it comes from the screen's physical size in its EDID (about 135 DPI a
#   point, as Plymouth does): 1 on a 21.5" 1080p monitor (102 DPI), 2 on a 7" 1080p panel (315 DPI).
# - Light on drawing: a quad-core Cortex-A53 at 1 GHz with 512 MB; a 1080p frame is 8 MB, so no
#   blur and no dimmed background (each is a pass over the whole frame), and a short fade.
name = "rpi-zero2w-hdmi"

[match]
compatible = ["raspberrypi,model-zero-2-w"]
connector = ["HDMI-A-1"]

[display]
# The firmware's framebuffer (simpledrm) is on screen first; the HUD moves to vc4's card when
# the KMS driver loads (the display switch).
switch = "vc4"
size = "1920x1080"
format = "xrgb8888"
connectors = ["HDMI-A-1"]
mode = "1920x1080"

[style]
background = "none"
bezel = "solid"

[timing]
animation = "fade"
animation_duration = 0.2

[motion]
# No accelerometer.
depth = 0.0

"""#),
        ShippedBoard(
            name: "rpi3-waveshare35",
            match: BoardMatch(compatible: ["raspberrypi,3-model-b", "raspberrypi,3-model-b-plus", "raspberrypi,3-model-a-plus"], drmDriver: ["ili9486", "panel-mipi-dbi-spi"], connector: ["SPI-1"]),
            text: #"""
# Raspberry Pi 3 with a Waveshare 3.5" SPI LCD (A) (480x320, ILI9486, resistive touch through an
# ADS7846), driven by DRM: the tinydrm driver ili9486 (drivers/gpu/drm/tiny/ili9486.c, compatible
# "waveshare,rpi-lcd-35", rotation = <90> for landscape) or panel-mipi-dbi with the panel's init
# sequence as firmware (the mipi-dbi-spi overlay, width=480 height=320). Not fbtft's fb_ili9486:
# that is fbdev only (kiosk-hud --fbdev /dev/fb1 works there, without this profile).
#
# Architecture: arm64: Raspberry Pi OS 64-bit, not the 32-bit one (kiosk-hud has no 32-bit ARM
# build; see Boards/README.md).
#
# Where the numbers come from:
# - 480x320 on 3.5" (74 x 49 mm): 165 DPI, scale 1; a tighter margin on such a small screen.
# - RGB565: the panel's native 16-bit format over SPI (mipi_dbi: "RGB565 is the native format";
#   XRGB8888 would be converted by the driver on every frame). The frame is pushed over SPI by the
#   driver when told which part changed (DRM_IOCTL_MODE_DIRTYFB): kiosk-hud sends the damage with
#   every frame, nothing to set. At the overlay's 16 MHz a full frame takes about 150 ms, so no
#   fade (each fade step is a full frame), no dim and no blur; the spinner redraws 40x40 pixels.
# - connector SPI-1: MIPI DBI panels register a DRM_MODE_CONNECTOR_SPI connector.
# - Touch: "ADS7846 Touchscreen" (drivers/input/touchscreen/ads7846.c, 12-bit, 0–4095 on both
#   axes). The matrix is Waveshare's X11 calibration for the landscape panel (LCD-show,
#   99-calibration.conf-35-90: evdev Calibration "3936 227 268 3880", SwapAxes "1") turned into
#   libinput's normalised form: x = 1.0612 − 1.1041·y_raw, y = 1.1337·x_raw − 0.0742. Every
#   resistive film differs a little: check the corners with `kiosk-hud touch`.
name = "rpi3-waveshare35"

[match]
compatible = ["raspberrypi,3-model-b", "raspberrypi,3-model-b-plus", "raspberrypi,3-model-a-plus"]
drm_driver = ["ili9486", "panel-mipi-dbi-spi"]
connector = ["SPI-1"]

[display]
# The panel's own driver is the one to move to (not vc4, whose card is the HDMI port); with
# panel-mipi-dbi name that one.
switch = "ili9486"
size = "480x320"
scale = 1.0
format = "rgb565"
connectors = ["SPI-1"]

[touch]
matrix = "0, -1.1041, 1.0612, 1.1337, 0, -0.0742"
device = "ADS7846"
keys = [28, 57, 1, 96]

[style]
margin = 10.0
background = "none"
bezel = "solid"

[timing]
animation = "fade"
animation_duration = 0.0

[motion]
depth = 0.0

"""#),
        ShippedBoard(
            name: "tablet-accelerometer",
            match: BoardMatch(drmDriver: ["i915"], iio: ["mxc4005"]),
            text: #"""
# A tablet-style x86 kiosk (Atom/Celeron slate) with an I2C accelerometer such as the MXC4005
# that systemd's hwdb describes with ACCEL_MOUNT_MATRIX. The HUD tilts with the device: the bezel
# slides downhill up to 10 points, measured from how the slate rests when the HUD starts.
#
# Architecture: amd64 (a 64-bit x86 OS; see Boards/README.md).
#
# Where the numbers come from: the MXC4005's IIO driver (drivers/iio/accel/mxc4005.c, IIO name
# "mxc4005"); i915 for the Atom/Celeron graphics; the mount matrix from systemd's hwdb
# (60-sensor.hwdb) through udev; 1280x800 at 10" (149 DPI): scale 1.25.
name = "tablet-accelerometer"

[match]
drm_driver = ["i915"]
iio = ["mxc4005"]

[display]
size = "1280x800"
scale = 1.25
format = "xrgb8888"
# eDP panels of these slates often report a "panel orientation"; it is honoured unless set here.

[touch]
# Goodix and Silead touch controllers on these slates may need a calibration matrix; libinput's
# LIBINPUT_CALIBRATION_MATRIX from udev is used when none is given here.
# matrix = "1, 0, 0, 0, 1, 0"
keys = [28, 57, 1, 96]

[motion]
# accel = "accel-display"     # the display-side sensor when there are two
# mount_matrix = "0, 1, 0; -1, 0, 0; 0, 0, 1"   # only if hwdb has none for this model
depth = 10.0
rate = 30.0
time_constant = 0.15
dead_zone = 1.5
neutral = "resting"

"""#),
        ShippedBoard(
            name: "x86-panel-pc",
            match: BoardMatch(drmDriver: ["i915", "amdgpu", "gma500"], input: ["eGalax", "ILITEK"]),
            text: #"""
# An x86 industrial panel PC (Intel Celeron/Atom or AMD embedded, eDP/LVDS panel) with a USB
# touch screen by eGalax (EETI) or ILITEK — what most fanless 10"–21" panel PCs carry.
#
# Architecture: amd64 (a 64-bit x86 OS; see Boards/README.md).
#
# Where the numbers come from:
# - DRM drivers: i915 (Intel), amdgpu (AMD), gma500 (older Atom panel PCs).
# - Touch: the controllers' USB names, as the kernel names the input device from the USB
#   strings: "eGalax Inc. USB TouchController", "eGalax Inc. eGalaxTouch EXC…" (usbtouchscreen,
#   hid-multitouch), "ILITEK ILITEK-TP", "ILITEK Multi-Touch-…" (hid-multitouch). HID digitizers
#   report in the screen's own coordinates, so no calibration; a panel mounted upside down needs
#   matrix = "rotate-180" (and rotation = 180).
# - Scale: from the panel's physical size in its EDID (not set).
name = "x86-panel-pc"

[match]
drm_driver = ["i915", "amdgpu", "gma500"]
input = ["eGalax", "ILITEK"]

[display]
size = "1280x800"
format = "xrgb8888"

[touch]
# matrix = "rotate-180"
keys = [28, 57, 1, 96]

[style]
background = "dim"

[timing]
grace_time = 0.5
min_show_time = 1.0

[motion]
depth = 0.0

"""#),
    ]
}
