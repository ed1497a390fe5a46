// swift-tools-version: 6.0
import PackageDescription

// Compiler settings for every module kiosk-hud links (Sources/kiosk-hud/LinkOrder.md has the
// measurements):
// - each function in its own section, so the linker can put the functions that run at start-up
//   and while showing side by side (link-order.txt) instead of scattered over 6 MB of code that
//   the kernel then maps in 64 kB steps;
// - no implicit _Concurrency and _StringProcessing: none of these modules uses them, and the
//   implicit import alone makes the static link pull in the concurrency runtime, libdispatch and
//   the regex engine (1.3 MB of code, 300 kB of it resident, and their start-up constructors);
// - generic type metadata (e.g. a Dictionary's storage for our key types) got by calling its
//   accessor with the witness tables known at compile time, instead of the runtime demangling a
//   mangled type name and searching every protocol conformance record for them: 1.4 M of the
//   8.9 M instructions from exec to the first frame.
// (Tools version 6.2: a package with these flags can still be a versioned dependency. Swift 6.0 —
// Debian 13's swiftlang, what a Raspberry Pi OS user gets from apt — reads Package@swift-6.0.swift:
// this file with tools version 6.0, made by `sed '1s/6.2/6.0/' Package.swift > Package@swift-6.0.swift`
// and checked by KioskToolchainTests.)
let lean: [SwiftSetting] = [.unsafeFlags([
    "-Xfrontend", "-function-sections",
    "-Xfrontend", "-disable-implicit-concurrency-module-import",
    "-Xfrontend", "-disable-implicit-string-processing-module-import",
    "-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors",
])]

let package = Package(
    name: "KioskHUD",
    products: [
        .library(name: "KioskHUD", targets: ["KioskHUD", "KioskHUDAsync", "KioskSession", "KioskBoards", "KioskWords", "KioskRaster", "KioskText", "KioskPresentation", "KioskSeams", "KioskTestDoubles", "KioskOffscreen", "KioskEmbedded", "KioskDevices", "KioskBehavior", "KioskPNG", "KioskSys", "KioskFakeKernel", "KioskProtocol", "KioskDaemon", "KioskRun", "KioskCommands", "KioskWayland"]),
        .executable(name: "kiosk-hud", targets: ["kiosk-hud"]),
        .executable(name: "kiosk-hud-bench", targets: ["kiosk-hud-bench"]),
        .executable(name: "kiosk-hud-fuzz", targets: ["kiosk-hud-fuzz"]),
    ],
    targets: [
        // Pure layers: no Glibc, no Foundation.
        .target(name: "KioskRaster", swiftSettings: lean),
        .target(name: "KioskPresentation", swiftSettings: lean),
        // Every setting declared once (rules, defaults, help), and the board file's TOML reader.
        .target(name: "KioskSettings", swiftSettings: lean),
        // The command line: declared options, parsed without reflection, help from the same values.
        .target(name: "KioskCLI", dependencies: ["KioskSettings"], swiftSettings: lean),

        // dlopen and the kiosk_ wrappers' table, for the libraries loaded only when needed.
        .target(name: "CKioskLoader"),

        // Text (FreeType) and PNG (libpng) codecs.
        // FreeType's functions through dlopen (CKioskFreeType), loaded only when a glyph is not in
        // the glyph cache.
        .target(name: "CKioskFreeType", dependencies: ["CKioskLoader"]),
        .target(name: "KioskText", dependencies: ["CKioskFreeType", "KioskSys"], swiftSettings: lean),
        // libpng through dlopen (CKioskPNG), loaded at the first PNG read or write.
        // Optimized in debug builds too: kiosk_png_read_rgba's box filter runs once per source
        // pixel (a 16384x16384 picture scaled to the canvas takes 5 s at -O0, 1 s at -O2).
        .target(name: "CKioskPNG", dependencies: ["CKioskLoader"], cSettings: [.unsafeFlags(["-O2"])]),
        // Files opened through KioskSys (never blocking, regular files only).
        .target(name: "KioskPNG", dependencies: ["CKioskPNG", "KioskSys"], swiftSettings: lean),

        // HUD model, layout and rendering.
        .target(name: "KioskHUD", dependencies: ["KioskRaster", "KioskText", "KioskPresentation", "KioskSeams"], swiftSettings: lean),

        // A HUD on a screen, run by an event loop: `show`, the daemon and `run` use it.
        .target(name: "KioskSession", dependencies: ["KioskHUD", "KioskPresentation", "KioskSeams", "KioskRaster", "KioskText"], swiftSettings: lean),

        // The control protocol's strict, bounded JSON codec (no Foundation).
        .target(name: "KioskProtocol", swiftSettings: lean),
        // libsystemd's sd-bus through dlopen (CKioskSystemd), loaded only by `ctl follow-boot` and `daemon --rauc`.
        .target(name: "CKioskSystemd", dependencies: ["CKioskLoader"]),
        // `kiosk-hud daemon`: the control socket, its protocol, psplash's FIFO.
        .target(name: "KioskDaemon", dependencies: ["KioskSession", "KioskProtocol", "KioskBoards", "KioskSettings", "KioskSys",
                                                     "KioskHUD", "KioskSeams", "KioskRaster", "CKioskSystemd"], swiftSettings: lean),

        // `kiosk-hud run -- CMD`: the command, its output read for progress, Cancel on its HUD.
        .target(name: "KioskRun", dependencies: ["KioskSession", "KioskDaemon", "KioskProtocol", "KioskSys", "CKioskSys", "KioskHUD", "KioskSeams", "KioskBoards"],
                swiftSettings: lean),

        // The button as an AsyncStream (Swift concurrency, which kiosk-hud leaves out).
        .target(name: "KioskHUDAsync", dependencies: ["KioskHUD"]),

        // The seams between the HUD and the hardware (Screen, Display, EventLoop, input, motion,
        // clock), the offscreen screen (`--offscreen`: a backend with no kernel), and the test
        // doubles (which re-export the offscreen screen).
        .target(name: "KioskSeams", dependencies: ["KioskRaster"], swiftSettings: lean),
        .target(name: "KioskOffscreen", dependencies: ["KioskSeams", "KioskRaster"], swiftSettings: lean),
        .target(name: "KioskTestDoubles", dependencies: ["KioskSeams", "KioskOffscreen", "KioskRaster"], swiftSettings: lean),
        // Deprecated (0.3.0 at the earliest: gone): KioskSeams and KioskPresentation under their
        // earlier names, re-exported.
        .target(name: "KioskDevices", dependencies: ["KioskSeams"], swiftSettings: lean),
        .target(name: "KioskBehavior", dependencies: ["KioskPresentation"], swiftSettings: lean),
        // Deprecated (0.2.0 at the earliest: gone): KioskTestDoubles under its earlier name, re-exported.
        .target(name: "KioskEmbedded", dependencies: ["KioskTestDoubles"], swiftSettings: lean),

        // Linux backends: the only code that makes system calls (KioskSys wraps each one once).
        .target(name: "CKioskSys"),
        // kiosk-hud's early frame: the frame cache's picture shown from a C constructor, before
        // the Swift runtime starts (linked into kiosk-hud only).
        .target(name: "CKioskEarlyFrame", dependencies: ["CKioskSys"]),
        .target(name: "KioskSys", dependencies: ["CKioskSys", "KioskSeams"], swiftSettings: lean),
        // The kernel played by a test (as SwiftNIO ships NIOEmbedded): a DRM card, fbdev, VTs,
        // signals and hotplug modelled, everything else passed through, any call failable.
        .target(name: "KioskFakeKernel", dependencies: ["KioskSys", "CKioskSys"]),
        // The display: DRM/KMS dumb buffers (fbdev fallback).
        .target(name: "KioskDRM", dependencies: ["KioskSys", "CKioskSys", "KioskSeams", "KioskRaster"], swiftSettings: lean),
        // Touch, pointer and keys: libinput, loaded with dlopen when input starts (after the first
        // frame), with its headers from libinput-dev/libudev-dev.
        .target(name: "CKioskInput", dependencies: ["CKioskLoader"]),
        .target(name: "KioskInput", dependencies: ["KioskSys", "CKioskSys", "CKioskInput", "KioskSeams"], swiftSettings: lean),
        // The HUD over a running compositor: a wlr-layer-shell overlay through libwayland-client,
        // loaded with dlopen when a Wayland screen opens (CKioskWayland describes the protocol).
        .target(name: "CKioskWayland", dependencies: ["CKioskLoader"]),
        .target(name: "KioskWayland", dependencies: ["CKioskWayland", "KioskSeams", "KioskRaster", "KioskSys"], swiftSettings: lean),
        // The tilt: IIO accelerometers from sysfs.
        .target(name: "KioskIIO", dependencies: ["KioskSys", "KioskSeams", "KioskPresentation"], swiftSettings: lean),

        // The HUD's own words in each language (pure).
        .target(name: "KioskWords", swiftSettings: lean),
        // Board profiles (TOML), every setting's declaration, detection; the words re-exported.
        .target(name: "KioskBoards", dependencies: [
            "KioskWords", "KioskSettings", "KioskCLI", "KioskHUD", "KioskRaster", "KioskText", "KioskPresentation", "KioskSeams", "KioskSys",
        ], swiftSettings: lean),

        // The commands' wiring (render, show, daemon, ctl, run, plymouth, tilt, touch, boards): the
        // options they take, and each run built from the layers below on an event loop; kiosk-hud
        // parses the command line and calls them.
        .target(name: "KioskCommands", dependencies: [
            "KioskCLI", "KioskSettings", "KioskBoards", "KioskHUD", "KioskSession", "KioskDaemon", "KioskRun", "KioskProtocol", "KioskDRM",
            "KioskIIO", "KioskInput", "KioskSys", "KioskRaster", "KioskText", "KioskPNG", "KioskSeams", "KioskOffscreen", "KioskPresentation",
            "KioskWayland",
        ], swiftSettings: lean),

        // The executable only wires: the command line parsed, the command picked, its entry point
        // (KioskCommands) called; and the early frame's constructor, linked into it only.
        .executableTarget(name: "kiosk-hud", dependencies: ["KioskCLI", "KioskCommands", "KioskDRM", "CKioskEarlyFrame"],
        exclude: ["link-order.txt", "LinkOrder.md", "static-libstdc++"],
        swiftSettings: lean,
        // The Swift runtime linked statically: exec -> first frame drops by about half on the host
        // and by ~300 ms under QEMU (KioskDRM's header). lld packs the ~27,000 relative
        // relocations into a few kB (DT_RELR, glibc ≥ 2.36) instead of a 640 kB table the loader
        // reads at every start and that stays resident. The functions in link-order.txt go first
        // (LinkOrder.md; lld skips names it does not find, KioskLinkOrderTests fails on them); no
        // symbol table for dlsym that nobody uses (-export-dynamic is the driver's default: 290 kB
        // resident); the runtime's few C++ library functions linked in
        // from libstdc++.a instead of loading all of libstdc++.so (1 MB resident), and its unwinder
        // from libgcc_eh.a instead of loading libgcc_s.so (one library fewer before main).
        linkerSettings: [.unsafeFlags([
            "-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/kiosk-hud/link-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering", "-Xlinker", "--no-export-dynamic",
            "-L\(Context.packageDirectory)/Sources/kiosk-hud/static-libstdc++", "-Xclang-linker", "-static-libgcc",
        ])]),
        .executableTarget(name: "kiosk-hud-bench", dependencies: ["KioskHUD", "KioskRaster", "KioskText", "KioskSeams", "KioskTestDoubles",
                                                                 "KioskDaemon", "KioskSession", "KioskSys", "KioskProtocol", "KioskBoards"]),
        // The fuzz harness (README's "Fuzzing"; the design at the top of KioskHUDFuzz.swift):
        // seeded generated inputs for the command line, board files, PNGs and IIO trees, and a soak.
        .executableTarget(name: "kiosk-hud-fuzz", dependencies: [
            "KioskBoards", "KioskSettings", "KioskPNG", "KioskSession", "KioskTestDoubles", "KioskHUD", "KioskText", "KioskSeams",
            "KioskPresentation", "KioskTestSupport", "KioskDaemon", "KioskCommands",
        ]),

        // Helpers for the test suites only (waiting for QEMU guests off the cooperative pool).
        .target(name: "KioskTestSupport", dependencies: ["KioskSys", "KioskProtocol"], path: "Tests/KioskTestSupport"),

        .testTarget(name: "KioskRasterTests", dependencies: ["KioskRaster", "KioskPNG", "KioskTestSupport"]),
        .testTarget(name: "KioskTextTests", dependencies: ["KioskTestSupport", "KioskText", "KioskPNG", "KioskSys", "KioskFakeKernel"]),
        .testTarget(name: "KioskPresentationTests", dependencies: ["KioskPresentation"]),
        .testTarget(name: "KioskCLITests", dependencies: ["KioskCLI"]),
        .testTarget(name: "KioskSettingsTests", dependencies: ["KioskSettings"]),
        .testTarget(name: "KioskProtocolTests", dependencies: ["KioskProtocol", "KioskTestSupport"]),
        .testTarget(name: "KioskDaemonTests", dependencies: ["KioskDaemon", "KioskTestSupport", "KioskSys", "KioskBoards", "KioskSeams",
                                                            "KioskTestDoubles", "KioskHUD", "KioskProtocol", "KioskRaster", "KioskSession", "KioskText",
                                                            "KioskDRM", "KioskFakeKernel"]),
        // The built kiosk-hud against bad input: exact messages and statuses, no hang.
        .testTarget(name: "KioskRunTests", dependencies: ["KioskRun", "KioskSession", "KioskSys", "KioskTestSupport", "KioskSeams", "KioskHUD", "KioskFakeKernel"]),
        .testTarget(name: "KioskCommandTests", dependencies: ["KioskTestSupport", "KioskSys", "KioskPNG", "KioskCommands", "KioskCLI", "KioskDaemon",
                                                             "KioskSession", "KioskTestDoubles", "KioskSeams", "KioskHUD", "KioskText",
                                                             "KioskBoards", "KioskFakeKernel"]),
        .testTarget(name: "KioskSysTests", dependencies: ["KioskSys", "KioskSeams", "KioskFakeKernel", "KioskTestSupport"]),
        .testTarget(name: "KioskSessionTests", dependencies: ["KioskSession", "KioskTestDoubles", "KioskHUD", "KioskText", "KioskSeams",
                                                             "KioskRaster", "KioskPresentation"]),
        .testTarget(name: "KioskDRMTests", dependencies: ["KioskTestSupport", "KioskDRM", "KioskSys", "CKioskSys", "KioskSeams", "KioskRaster", "KioskPNG", "KioskFakeKernel", "KioskTestDoubles"]),
        .testTarget(name: "KioskIIOTests", dependencies: ["KioskTestSupport", "KioskIIO", "KioskSys", "KioskSeams", "KioskPresentation", "KioskTestDoubles", "KioskSession",
                                                  "KioskHUD", "KioskText", "KioskRaster", "KioskFakeKernel"]),
        .testTarget(name: "KioskInputTests", dependencies: ["KioskTestSupport", "KioskInput", "KioskSys", "KioskSeams", "KioskFakeKernel"]),
        .testTarget(name: "KioskBoardsTests", dependencies: ["KioskBoards", "KioskHUD", "KioskSettings", "KioskCLI", "KioskSys", "KioskTestSupport",
                                                            "KioskSeams", "KioskTestDoubles", "KioskRaster", "KioskText", "KioskSession", "KioskDRM"]),
        // Every entry of Sources/kiosk-hud/link-order.txt is a symbol of the release kiosk-hud
        // (the test links one with its own scratch path, .build-release-check).
        .testTarget(name: "KioskLinkOrderTests", dependencies: ["KioskTestSupport", "KioskSys"]),
        // Debian 13's Swift (6.0.3) and arm64: the package built and tested in a Debian 13 root, the
        // arm64 cross build drawing what x86-64 draws, its .deb (Tools/debian13.sh, cross-build.sh).
        .testTarget(name: "KioskToolchainTests", dependencies: ["KioskTestSupport", "KioskSys", "KioskPNG"]),
        // Runs the kiosk-hud-fuzz binary built next to the tests in short mode, one test per target.
        .testTarget(name: "KioskFuzzTests", dependencies: ["KioskTestSupport"]),
        .testTarget(name: "KioskHUDTests",
                    dependencies: ["KioskHUD", "KioskHUDAsync", "KioskRaster", "KioskText", "KioskPNG", "KioskSeams", "KioskTestDoubles"],
                    exclude: ["Goldens", "Fixtures"]),
    ]
)
