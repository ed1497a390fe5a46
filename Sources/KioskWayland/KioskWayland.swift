// KioskWayland — the HUD over a running compositor: a Wayland screen beside DRM and fbdev. Once a
// kiosk's compositor (labwc on Raspberry Pi OS, sway, wayfire) holds DRM master, nobody else
// may draw on the card; the HUD goes on as the compositor's client instead, one
// wlr-layer-shell surface per output on the overlay layer, over every window, fullscreen ones
// included.
//
// How it draws: the same renderer as on DRM, into a premultiplied ARGB8888 shadow whose
// underlay is transparent (`Display.isOverlay`): the compositor blends it over the app, so a dim
// darkens the app and the bezel floats over it. A present copies only the damaged rectangles into
// a wl_shm buffer the compositor is not reading (up to four per surface; each remembers the
// damage it missed) and commits them with `damage_buffer`; the compositor's frame callback stands
// in for vblank (`ScreenEvent.frameDone`). Nothing is asked for while nothing changes: an idle HUD
// wakes nobody.
//
// Input: the compositor owns the devices, so the HUD's pointer and touch come from its seat, on
// the HUD's surfaces only (`Screen.input`), mapped onto the first output's picture as libinput's
// are onto the first display's. Tilt stays IIO's (no compositor routes an accelerometer).
//
// Why libwayland-client by dlopen (CKioskWayland) and the interfaces written by hand there: the
// boot's commands must not load it (no Wayland in an initramfs), the build needs no -dev package,
// and no Debian 12 package ships the layer shell's protocol description.
import CKioskWayland
import KioskRaster
import KioskSeams

/// Why the Wayland screen could not start or went on no further.
public struct WaylandError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// How to open a Wayland screen.
public struct WaylandOptions: Sendable {
    /// The compositor's socket: a name under $XDG_RUNTIME_DIR ("wayland-1") or an absolute path;
    /// nil: $WAYLAND_DISPLAY, as every Wayland client.
    public var socket: String?
    /// The HUD's scale; nil: each output's own (its integer wl_output scale).
    public var scale: Double?
    /// Whether a root process may connect to a compositor of another user (off: refused, see
    /// docs/security.md; tests of the refusal's absence only).
    public var allowsOtherUser = false
    /// One line for the log.
    public var log: @Sendable (String) -> Void = { _ in }
    public init(socket: String? = nil, scale: Double? = nil) { self.socket = socket; self.scale = scale }
}
