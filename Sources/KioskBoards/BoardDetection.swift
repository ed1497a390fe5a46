// `--board auto`: the most specific profile whose `[match]` rules all hold on this machine, else
// `generic`. Candidates are tried from the most specific down (then user profiles before
// installed before built-in, then by name), so the first that matches is the answer and the
// others are not even looked at; `kiosk-hud boards detect` looks at all of them and says why
// each did or did not match.
//
// Cost, on the way to the first frame (`show`'s "first-frame phases" profile=, release build,
// x86-64 dev VM, medians of 80 interleaved runs of `show --offscreen - --duration 0`, with
// KIOSK_BOARD_ROOT at a fake Raspberry Pi 4 + 7" Touch Display: device tree, card0 v3d, card1
// vc4-drm with DSI-1 800x480 and three more connectors, three input devices):
//   no --board (offscreen: the built-in generic)           0.05 ms (main before detection: 0.06)
//   --board rpi-touch-display (by name: catalog + parse)   0.32 ms
//   --board auto, built-in profiles                         0.49 ms, +10 page faults over by name
//   --board auto, the 9 installed profiles read too         0.61 ms
//   --board auto on a machine with none of the files        0.18 ms
// So detection itself is about 0.17 ms and ~10 faults (first use of its code) on top of reading
// the chosen profile, which costs what --board FILE always did (0.24 ms on main). Under perf,
// most of detection is the syscalls on /sys (readlink of each card's driver, each connector's
// status, DSI-1's modes) and /proc/device-tree/compatible. What else showed up there is gone:
// spelling out why a rule failed (only `boards detect` needs it), sorting whole entries, a
// tuple array's run-time type, dictionaries in the settings table, split/joined on a path.

/// What one rule found.
public struct RuleResult: Sendable, Equatable {
    public var kind: BoardRuleKind
    public var holds: Bool
    /// What matched (`compatible raspberrypi,4-model-b`), or why not (`compatible: none of …`).
    public var detail: String
}

/// How one profile fared.
public struct CandidateResult: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// Every rule holds.
        case matched
        /// At least one rule does not.
        case failed
        /// No `[match]` rules: chosen by name only.
        case noRules
        /// Not looked at: a more specific profile matched first (not in `explain` mode).
        case notChecked
        /// The profile cannot be used (its problem).
        case invalid(String)
    }

    public var entry: BoardEntry
    public var outcome: Outcome
    /// The rules checked, in order (when not explaining, up to the first that fails).
    public var rules: [RuleResult]

    /// "compatible raspberrypi,4-model-b, connector DSI-1 (connected)" or the failures.
    public var why: String {
        switch outcome {
        case .matched: return rules.map(\.detail).joined(separator: ", ")
        case .failed: return rules.filter { !$0.holds }.map(\.detail).joined(separator: "; ")
        case .noRules: return "no [match] rules (chosen by name only)"
        case .notChecked: return "not checked (a more specific profile matched)"
        case let .invalid(problem): return problem
        }
    }
}

/// The outcome of `--board auto`.
public struct BoardDetection: Sendable {
    /// The profile chosen (nil: none matched; `generic` applies).
    public var chosen: BoardEntry?
    /// Every profile of the catalog, in the order they were considered.
    public var results: [CandidateResult]
    /// Why the chosen one (or none): "the only match", "the most specific of 2 matches" …
    public var reason: String
    /// The profiles more specific than the chosen one that failed only on display rules (the
    /// DRM driver, a connector, a mode), every other rule holding: at boot their display may
    /// just not be there yet (the board's driver loads seconds after the splash starts), so
    /// a display run detects again when a display appears (`mayChangeWithDisplay`).
    public var awaitingDisplay: [String] = []

    /// Whether the answer may change once the display is there (see `awaitingDisplay`).
    public var mayChangeWithDisplay: Bool { !awaitingDisplay.isEmpty }

    /// Runs the rules of `catalog`'s profiles against `facts`. `explain`: check every profile
    /// and every rule (for `boards detect`); otherwise stop at the first match.
    public static func detect(_ catalog: BoardCatalog, facts: BoardFacts, explain: Bool = false) -> BoardDetection {
        // Indices sorted, not the entries (large values, moved at every step).
        let entries = catalog.entries
        let specificity = entries.map { $0.problem == nil ? $0.match.specificity : -1 }
        let order = entries.indices.sorted { i, j in
            if specificity[i] != specificity[j] { return specificity[i] > specificity[j] }
            let a = entries[i], b = entries[j]
            if a.source.kind != b.source.kind { return a.source.kind < b.source.kind }
            return a.name.utf8.lexicographicallyPrecedes(b.name.utf8)
        }
        var results: [CandidateResult] = []
        var chosen: BoardEntry?
        var matches: [BoardEntry] = []
        var awaiting: [String] = []
        for e in order.map({ entries[$0] }) {
            if let problem = e.problem { results.append(CandidateResult(entry: e, outcome: .invalid(problem), rules: [])); continue }
            if e.match.isEmpty { results.append(CandidateResult(entry: e, outcome: .noRules, rules: [])); continue }
            if chosen != nil, !explain { results.append(CandidateResult(entry: e, outcome: .notChecked, rules: [])); continue }
            var rules: [RuleResult] = []
            for kind in e.match.kinds {
                let r = check(kind, e.match, facts, explain: explain)
                rules.append(r)
                if !r.holds, !explain { break }
            }
            let ok = rules.allSatisfy(\.holds)
            if !ok, chosen == nil, awaitsDisplay(e.match, rules, facts) { awaiting.append(e.name) }
            results.append(CandidateResult(entry: e, outcome: ok ? .matched : .failed, rules: rules))
            if ok {
                matches.append(e)
                if chosen == nil { chosen = e }
            }
        }
        let checked = results.filter {
            switch $0.outcome {
            case .matched, .failed, .notChecked: true
            case .noRules, .invalid: false
            }
        }.count
        var reason: String
        if let c = chosen {
            let n = c.match.specificity
            let rules = "\(n) rule\(n == 1 ? "" : "s")"
            if !explain {
                reason = "the most specific match (\(rules))"
            } else if matches.count == 1 {
                reason = "the only match (\(rules))"
            } else {
                let tied = matches.dropFirst().filter { $0.match.specificity == n }.map(\.name)
                reason = "the most specific of \(matches.count) matches (\(rules))"
                if !tied.isEmpty {
                    reason += "; tied with \(tied.joined(separator: ", ")): user profiles come before installed before built-in, then by name"
                }
            }
        } else {
            reason = "no profile matches (\(checked) checked)"
        }
        return BoardDetection(chosen: chosen, results: results, reason: reason, awaitingDisplay: awaiting)
    }

    /// Whether a profile whose `rules` (as checked so far) failed fails on display rules alone:
    /// every failed rule is one, and every rule not checked yet that is not one holds.
    static func awaitsDisplay(_ match: BoardMatch, _ rules: [RuleResult], _ facts: BoardFacts) -> Bool {
        guard rules.allSatisfy({ $0.holds || $0.kind.isDisplay }) else { return false }
        let checked = Set(rules.map(\.kind))
        return match.kinds.allSatisfy { k in checked.contains(k) || k.isDisplay || check(k, match, facts, explain: false).holds }
    }

    /// Whether one rule of `match` holds on `facts`, and what it found (why not: only when
    /// `explain`ing; on the way to the first frame nobody reads it).
    static func check(_ kind: BoardRuleKind, _ match: BoardMatch, _ facts: BoardFacts, explain: Bool = true) -> RuleResult {
        let wanted = match[kind]
        func found(_ have: [String]) -> String? {
            for w in wanted { if have.contains(where: { kind.whole ? $0 == w : containsText($0, w) }) { return w } }
            return nil
        }
        func none(_ have: @autoclosure () -> [String], _ what: @autoclosure () -> String, quoting: Bool = true) -> RuleResult {
            guard explain else { return RuleResult(kind: kind, holds: false, detail: "") }
            let have = have(), what = what()
            let list = have.isEmpty ? "none" : have.map { quoting ? quotedIfSpaced($0) : $0 }.joined(separator: ", ")
            return RuleResult(kind: kind, holds: false,
                              detail: "\(kind.key): none of \(wanted.map(quotedIfSpaced).joined(separator: ", ")) (\(what): \(list))")
        }
        switch kind {
        case .compatible:
            guard let w = found(facts.compatible) else { return none(facts.compatible, "device tree") }
            return RuleResult(kind: kind, holds: true, detail: "compatible \(w)")
        case .model:
            guard let m = facts.model else { return none([], "model") }
            guard let w = found([m.text]) else { return none([m.text], m.source.rawValue) }
            return RuleResult(kind: kind, holds: true, detail: "\(m.source.rawValue) \"\(m.text)\" has \"\(w)\"")
        case .drmDriver:
            // Either name of a card's driver: sysfs's (`vc4-drm`, read first: no device opened)
            // or the DRM driver's own (`vc4`, DRM_IOCTL_VERSION, what --display-switch takes).
            let drivers = facts.cards.compactMap(\.driver)
            if let w = found(drivers) { return RuleResult(kind: kind, holds: true, detail: "DRM driver \(w)") }
            if let w = found(facts.cards.compactMap { facts.drmName(of: $0) }) {
                return RuleResult(kind: kind, holds: true, detail: "DRM driver \(w)")
            }
            return none(facts.cards.compactMap { facts.driverNames(of: $0) }, "DRM drivers", quoting: false)
        case .connector:
            let usable = facts.connectors.filter(\.usable).map(\.name)
            guard let w = found(usable) else {
                return none(facts.connectors.map { "\($0.name) (\($0.status ?? "no status"))" }, "connectors", quoting: false)
            }
            let status = facts.connectors.first { $0.name == w && $0.usable }?.status ?? "?"
            return RuleResult(kind: kind, holds: true, detail: "connector \(w) (\(status))")
        case .mode:
            let on = facts.connectors.filter { $0.usable && (match.connector.isEmpty || match.connector.contains($0.name)) }
            var modes: [String] = []
            for c in on { for m in facts.modes(of: c) where !modes.contains(m) { modes.append(m) } }
            guard let w = found(modes) else { return none(modes, match.connector.isEmpty ? "modes" : "modes of \(match.connector.joined(separator: ", "))") }
            return RuleResult(kind: kind, holds: true, detail: "mode \(w)")
        case .iio:
            guard let w = found(facts.iioNames) else { return none(facts.iioNames, "IIO devices") }
            let name = facts.iioNames.first { containsText($0, w) } ?? w
            return RuleResult(kind: kind, holds: true, detail: "IIO device \"\(name)\"")
        case .input:
            guard let w = found(facts.inputNames) else { return none(facts.inputNames, "input devices") }
            let name = facts.inputNames.first { containsText($0, w) } ?? w
            return RuleResult(kind: kind, holds: true, detail: "input \"\(name)\"")
        }
    }
}

/// `text`, in quotes when it has a space (input device names).
func quotedIfSpaced(_ text: String) -> String { text.utf8.contains(0x20) ? "\"\(text)\"" : text }
