/// The error `body` throws if it is an `E`; nil if it throws nothing or another error. What
/// `#expect(throws: E.self)` returns from Swift 6.1 on, for tests that Swift 6.0 (Debian 13's
/// swiftlang) compiles too: its `#expect(throws:)` returns nothing.
///
///     let error = caught(SettingsError.self) { try BoardProfile.parse(text, source: "x.toml") }
///     #expect(error?.description == "…")
public func caught<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do { try body() } catch let error as E { return error } catch {}
    return nil
}
