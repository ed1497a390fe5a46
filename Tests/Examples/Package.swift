// swift-tools-version: 6.0
import PackageDescription

// The README's library examples, built against KioskHUD's public API only, as a package that
// depends on it would (ExamplesTests in KioskCommandTests builds it; README.md's ```swift blocks
// must equal the `main.swift` files here). Not part of KioskHUD's own build: no target of the
// main package has this directory.
//
// A path dependency's identity is its directory's name, whatever the checkout is called.
let root = Context.packageDirectory.split(separator: "/").dropLast(2).last.map(String.init) ?? "KioskHUD"

let package = Package(
    name: "KioskHUDExamples",
    dependencies: [.package(path: "../..")],
    targets: [
        // README, "The library": a HUD session on an event loop.
        .executableTarget(name: "SessionExample", dependencies: [.product(name: "KioskHUD", package: root)]),
        // README: a long operation of your own with LongTask.
        .executableTarget(name: "LongTaskExample", dependencies: [.product(name: "KioskHUD", package: root)]),
        // Code written against the API before addObserver (HUD.onCompletion and the others),
        // which builds with deprecation warnings.
        .executableTarget(name: "EarlierAPI", dependencies: [.product(name: "KioskHUD", package: root)]),
    ]
)
