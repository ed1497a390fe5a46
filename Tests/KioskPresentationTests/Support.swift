@testable import KioskPresentation

/// |a − b| ≤ tolerance.
func approx(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// The spring curve's value at fraction `u` of its duration, computed independently.
func springAt(_ u: Double) -> Double {
    let x = TimingCurve.springSettleFactor * u
    return 1 - (1 + x) * kioskExp(-x)
}

/// Drives a `PresentationMachine` and records every action it emits.
struct Recorder {
    var machine: PresentationMachine
    var log: [PresentationAction] = []

    init(_ config: PresentationConfig = PresentationConfig()) {
        machine = PresentationMachine(config: config)
    }

    var completions: Int { log.filter { $0 == .completed }.count }

    @discardableResult
    mutating func show(animated: Bool = true, at t: Double) -> [PresentationAction] {
        record(machine.show(animated: animated, at: t))
    }
    @discardableResult
    mutating func hide(animated: Bool = true, at t: Double) -> [PresentationAction] {
        record(machine.hide(animated: animated, at: t))
    }
    @discardableResult
    mutating func hide(animated: Bool = true, afterDelay d: Double, at t: Double) -> [PresentationAction] {
        record(machine.hide(animated: animated, afterDelay: d, at: t))
    }
    @discardableResult
    mutating func push(at t: Double) -> [PresentationAction] { record(machine.pushActivity(at: t)) }
    @discardableResult
    mutating func pop(at t: Double) -> [PresentationAction] { record(machine.popActivity(at: t)) }
    @discardableResult
    mutating func advance(to t: Double) -> [PresentationAction] { record(machine.advance(to: t)) }

    private mutating func record(_ actions: [PresentationAction]) -> [PresentationAction] {
        log += actions
        return actions
    }
}
