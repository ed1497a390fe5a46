import Glibc           // SIGINT, SIGTERM
import KioskPresentation   // PresentationConfig
import KioskHUD
import KioskSession
import KioskSys        // PollEventLoop, SystemClock
import KioskTestDoubles   // OffscreenScreen, OffscreenDisplay, EmbeddedEventLoop, ScriptedInput, ManualClock
import KioskText

let clock = SystemClock()
let loop = PollEventLoop(clock: clock)
let screen = OffscreenScreen(try OffscreenDisplay(width: 800, height: 480))   // or KioskDRM's DRMScreen
let session = HUDSession(
    loop: loop, screen: screen, fonts: try FontLibrary(), clock: clock,
    configuration: SessionConfiguration(
        content: HUDContent(mode: .annular, label: "Updating…", buttonTitle: "Cancel", buttonHasAction: true),
        timing: PresentationConfig(graceTime: 0.5, minShowTime: 1),
        onButton: .call { cancelTheUpdate() }, quitSignals: [SIGINT, SIGTERM]))
session.onEnd = { _ in loop.stop() }
try session.start()
loop.schedule(after: 2) { session.setProgress(0.4, animated: true) }
try loop.run()   // frames only when something changes or animates
