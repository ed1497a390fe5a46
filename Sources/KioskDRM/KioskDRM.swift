// KioskDRM
