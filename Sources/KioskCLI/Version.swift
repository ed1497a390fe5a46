/// KioskHUD's version, written in this one place: `kiosk-hud --version` prints it, and
/// Tools/make-deb.sh reads it from this line, as it is, for the .deb's version. It is CHANGELOG.md's
/// newest release (a test checks that they agree): a release changes both.
public let kioskHUDVersion = "0.1.0"
