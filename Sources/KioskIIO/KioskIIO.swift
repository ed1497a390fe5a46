// KioskIIO
