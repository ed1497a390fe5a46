import KioskCommands
import KioskProtocol

/// `carryover`: the state the initramfs's daemon carries over to its next program image (`adopt`), read
/// as that image reads it (`decodeCarriedOverState`): $KIOSK_HUD_RESUME's value — the descriptors, the
/// screen, the state's descriptor — and the memory file's bytes, the HUD's status and each
/// picture's rights. A previous image of the same process wrote them, but a client set every
/// text in them, so they are parsed as a peer's bytes. An input is the variable's value, a
/// newline, then the state's bytes.
///
/// Inputs: valid pairs built field by field (every text setting at lengths up to its limit, of
/// control characters, quotes and non-ASCII; the screen's fields with a real mode's length of
/// hex or not; picture rights with up to 64 groups), a 0.1.0 variable holding the state itself,
/// then mutated: truncated, bytes flipped and inserted, JSON tokens spliced, nesting past the
/// parser's depth, numbers out of every range. The check: a decoded state or a typed refusal,
/// never a trap; at most three requests (`style`, `update`, `hide`); at most as many picture
/// rights as the state names; and a valid pair is never refused.
final class CarryOverTarget: InProcessTarget {
    let name = "carryover"
    let fileExtension = "txt"
    var canvasBytes: Int { 800 * 480 * 4 }

    var warmUp: [UInt8] {
        var rng = Rng(seed: 1, index: 1)
        return valid(&rng)
    }

    static let tokens: [[UInt8]] = ["{", "}", "[", "]", ",", ":", "\"", "\\u0000", "\\ud800", "1e999", "-1", "null", "true",
                                    "\"fd\":", "\"state\":", "\"screen\":", "\"status\":", "\"picture_rights\":", "\"groups\":"].map { Array($0.utf8) }

    func input(_ rng: inout Rng, index: Int) -> [UInt8] {
        let base = valid(&rng)
        switch rng.below(10) {
        case 0...2: return base
        case 3: return Array(base.prefix(rng.below(base.count + 1)))
        case 4: return deep(&rng)
        default: return Mutate.havoc(base, &rng, count: 1 + rng.length(16), tokens: Self.tokens)
        }
    }

    func check(_ input: [UInt8], index: Int) -> Violation? {
        let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
        let environment = String(decoding: input[..<newline], as: UTF8.self)
        let state = newline < input.endIndex ? Array(input[(newline + 1)...]) : []
        do {
            let (requests, rights) = try decodeCarriedOverState(environment: environment, state: state)
            if requests.count > 3 {
                return Violation(kind: "requests", detail: "\(requests.count) requests from one state", key: "more than three requests")
            }
            if rights.count > 3 {
                return Violation(kind: "rights", detail: "\(rights.count) picture rights", key: "more picture rights than pictures")
            }
            if verboseCases { warn("  decoded: \(requests.count) requests, \(rights.count) picture rights") }
        } catch {
            if verboseCases { warn("  refused: \(error)") }
            if isValid(input) {
                return Violation(kind: "refused", detail: "a valid state refused: \(error)", key: "valid state refused")
            }
        }
        return nil
    }

    // MARK: Inputs

    private func isValid(_ input: [UInt8]) -> Bool { validInputs.contains(input) }
    /// The valid inputs this worker made (a set of at most a few thousand).
    private var validInputs: Set<[UInt8]> = []

    private func valid(_ rng: inout Rng) -> [UInt8] {
        let controls: [Character] = (1...31).filter { $0 != 10 }.map { Character(Unicode.Scalar(UInt8($0))) } + ["\"", "\\", "é", "漢", "😀"]
        func text(_ max: Int) -> JSONValue {
            .string(String((0..<rng.below(max + 1) / 4).map { _ in rng.pick(controls) }))
        }
        let content: [(String, JSONValue)] = [("mode", .string(rng.pick(["bar", "annular", "indeterminate", "text", "success"]))),
                                              ("progress", .number(rng.unit())), ("label", text(1024)), ("details", text(8192)), ("button", text(128))]
        let style: [(String, JSONValue)] = [("theme", .string(rng.pick(["light", "dark"]))), ("background", .string(rng.pick(["none", "dim", "gradient"])))]
        var rights: [(String, JSONValue)] = []
        for key in ["image", "logo", "underlay_image"] where rng.chance(0.3) {
            let groups = (0..<rng.below(65)).map { _ in JSONValue.number(Double(rng.below(70000))) }
            rights.append((key, .object(JSONObject([("uid", .number(Double(rng.below(70000)))), ("gid", .number(Double(rng.below(70000)))),
                                                    ("groups", .array(groups))]))))
        }
        let status = JSONObject([("visible", .bool(rng.chance(0.5))), ("content", .object(JSONObject(content))),
                                 ("style", .object(JSONObject(style))), ("picture_rights", .object(JSONObject(rights)))])
        var control: [(String, JSONValue)] = [("fd", .number(3)), ("lock", .number(4))]
        if rng.chance(0.7) { control.append(("path", .string("/run/kiosk-hud/control.sock"))) }
        var env: [(String, JSONValue)] = [("control", .object(JSONObject(control)))]
        let legacy = rng.chance(0.2)   // a 0.1.0 image: the state in the variable itself
        env.append(legacy ? ("status", .object(status)) : ("state", .number(5)))
        var wellFormed = true
        if rng.chance(0.3) {
            let (s, ok) = screen(&rng)
            env.append(("screen", s))
            wellFormed = ok
        }
        let variable = JSON.encode(.object(JSONObject(env)))
        let bytes = Array((variable + "\n" + (legacy ? "" : JSON.encode(.object(status)))).utf8)
        // The variable is read up to 64 KiB (a 0.1.0 image's, with the state in it, may pass that).
        if wellFormed && variable.utf8.count <= 64 << 10 { validInputs.insert(bytes) }
        return bytes
    }

    /// A screen as `DaemonResume.encoded` writes it; its mode of the right length (a
    /// drm_mode_modeinfo, 68 bytes in hex) or not, and which.
    private func screen(_ rng: inout Rng) -> (JSONValue, Bool) {
        func n(_ v: Int) -> JSONValue { .number(Double(v)) }
        let length = rng.chance(0.8) ? 136 : rng.below(200)
        let hex = String((0..<length).map { _ in rng.pick(Array("0123456789abcdef")) })
        return (.object(JSONObject([("fd", n(6)), ("card", .string("/dev/dri/card0")), ("connector", n(rng.below(100))), ("crtc", n(rng.below(100))),
                                   ("mode", .string(hex)), ("format", .string("xrgb8888")), ("handle", n(1)), ("pitch", n(3200)),
                                   ("size", n(1_536_000)), ("fb", n(42)),
                                   ("saved", .object(JSONObject([("crtc", n(1)), ("fb", n(0)), ("x", n(0)), ("y", n(0))]))),
                                   ("released", .array([.array([n(43), n(2)])]))])), length == 136)
    }

    /// Nesting past the parser's depth, in the variable or in the state.
    private func deep(_ rng: inout Rng) -> [UInt8] {
        let depth = 1 + rng.below(100_000)
        let nest = Array(repeating: UInt8(ascii: rng.chance(0.5) ? "[" : "{"), count: depth)
        return rng.chance(0.5) ? nest : Array("{\"control\":{\"fd\":3},\"state\":5}\n".utf8) + nest
    }
}
