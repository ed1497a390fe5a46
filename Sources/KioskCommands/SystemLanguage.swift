import KioskBoards
import KioskSys

/// The system's language for the HUD's own words (`[words] language = "auto"`): LC_ALL,
/// LC_MESSAGES, LANG from the environment, else /etc/default/locale (under KIOSK_BOARD_ROOT,
/// for tests), else English (`Language.system`, the pure part, decides). The file is read
/// through `kernel`.
public func systemLanguage(kernel: any Kernel = LinuxKernel()) -> Language {
    let root = environmentValue("KIOSK_BOARD_ROOT") ?? ""
    return Language.system(environment: environmentValue, localeFile: try? kernel.readSmallFile(root + "/etc/default/locale"))
}
