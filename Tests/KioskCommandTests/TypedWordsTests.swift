// The words the command line and the settings accept, each list a type: ctl's verbs are
// `CtlVerb`'s, the `.choice` settings' and options' words their enums', and the modes that
// show progress one property (`HUDMode.showsProgress`) that every source of progress asks.
import KioskBoards
import KioskCLI
@testable import KioskCommands
import KioskDaemon
import KioskHUD
import KioskSettings
import Testing

@Suite struct TypedWordsTests {
    @Test func ctlsVerbsAreCtlVerbsCases() {
        #expect(CtlCommand.spec.subcommands.map(\.name) == CtlVerb.allCases.map(\.rawValue))
        #expect(CtlVerb.waitButton.op == .subscribe)
        #expect(CtlVerb.newRoot.op == .newRoot)
        for v in CtlVerb.allCases where ![.waitButton, .followBoot].contains(v) {
            #expect(v.op.rawValue == String(v.rawValue.map { $0 == "-" ? "_" : $0 }), "\(v)")
        }
    }

    @Test func everyChoiceSettingReadsBackItsEveryWord() throws {
        for s in HUDSettings.table.settings {
            guard case let .choice(words) = s.rule.kind else { continue }
            for w in words {
                var settings = HUDSettings()
                s.set(&settings, .text(w))
                #expect(s.get(settings) == .text(w), "\(s.key) = \(w)")
            }
        }
    }

    @Test func theModesThatShowProgress() {
        #expect(HUDMode.allCases.filter(\.showsProgress) == [.determinate, .annular, .bar])
    }

    @Test func buttonAndRunWords() {
        #expect(ButtonChoice.allCases.map(\.rawValue) == ["exit", "hide", "none"])
        #expect(ButtonChoice.onTapOutside.map(\.rawValue) == ["exit", "none"])
        #expect(RunHUD.allCases.map(\.rawValue) == ["auto", "daemon", "display", "none"])
    }
}
