import KioskHUD
import KioskSession

/// A task's HUD that can change mid-task: what the task shows goes to `current`, and
/// `switchTo(_:)` hands the content and the button to another (`kiosk-hud run` moving from a
/// daemon that stopped answering to its own display).
public final class SwitchingTaskHUD: TaskHUD {
    /// The HUD the task shows on now.
    public private(set) var current: TaskHUD
    private var buttonHandler: (() -> Void)?

    public init(_ hud: TaskHUD) { current = hud }

    public var content: HUDContent { current.content }
    public var isOnScreen: Bool { current.isOnScreen }

    public func update(_ c: HUDContent, animatedProgress: Bool) throws { try current.update(c, animatedProgress: animatedProgress) }

    public func onButton(_ handler: @escaping () -> Void) {
        buttonHandler = handler
        current.onButton(handler)
    }

    /// Goes on on `hud`: it is given what the task shows now, and the button's handler.
    public func switchTo(_ hud: TaskHUD) throws {
        let shown = current.content
        current = hud
        if let buttonHandler { hud.onButton(buttonHandler) }
        try hud.update(shown, animatedProgress: false)
    }
}
