// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "KioskHUD",
    products: [
        .library(name: "KioskHUD", targets: ["KioskHUD", "KioskBoards", "KioskRaster", "KioskText", "KioskBehavior", "KioskDevices", "KioskEmbedded", "KioskPNG"]),
        .executable(name: "kiosk-hud", targets: ["kiosk-hud"]),
        .executable(name: "kiosk-hud-bench", targets: ["kiosk-hud-bench"]),
    ],
    targets: [
        // C libraries from Debian packages.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),

        // Pure layers: no Glibc, no Foundation.
        .target(name: "KioskRaster"),
        .target(name: "KioskBehavior"),
        // The command line: declared options, parsed without reflection, help from the same values.
        .target(name: "KioskCLI"),

        // Text (FreeType) and PNG (libpng) codecs.
        .target(name: "KioskText", dependencies: ["CFreeType", "KioskSys"]),
        .target(name: "KioskPNG", dependencies: ["CPNG"]),

        // HUD model, layout and rendering.
        .target(name: "KioskHUD", dependencies: ["KioskRaster", "KioskText", "KioskBehavior", "KioskDevices"]),

        // Device seams and their test doubles.
        .target(name: "KioskDevices", dependencies: ["KioskRaster"]),
        .target(name: "KioskEmbedded", dependencies: ["KioskDevices", "KioskRaster"]),

        // Linux backends: the only code that makes system calls (KioskSys wraps each one once).
        .target(name: "CKioskSys"),
        .target(name: "KioskSys", dependencies: ["CKioskSys"]),
        // The display: DRM/KMS dumb buffers (fbdev fallback).
        .target(name: "KioskDRM", dependencies: ["KioskSys", "CKioskSys", "CDRM", "KioskDevices", "KioskRaster"]),
        // Touch, pointer and keys: libinput, loaded with dlopen when input starts (after the first
        // frame), with its headers from libinput-dev/libudev-dev.
        .target(name: "CKioskInput"),
        .target(name: "KioskInput", dependencies: ["KioskSys", "CKioskSys", "CKioskInput", "KioskDevices"]),
        // The tilt: IIO accelerometers from sysfs.
        .target(name: "KioskIIO", dependencies: ["KioskSys", "KioskDevices", "KioskBehavior"]),

        // Board profiles (TOML).
        .target(name: "KioskBoards", dependencies: [
            "KioskHUD", "KioskRaster", "KioskText", "KioskBehavior", "KioskDevices",
        ]),

        .executableTarget(name: "kiosk-hud", dependencies: [
            "KioskCLI", "KioskHUD", "KioskBoards", "KioskDRM", "KioskIIO", "KioskInput", "KioskSys", "KioskRaster", "KioskText", "KioskPNG",
            "KioskDevices", "KioskEmbedded",
        ],
        // The Swift runtime linked statically: exec -> first frame drops by about half on the host
        // and by ~300 ms under QEMU (KioskDRM's header). lld packs the ~27,000 relative
        // relocations into a few kB (DT_RELR, glibc ≥ 2.36) instead of a 640 kB table the loader
        // reads at every start and that stays resident.
        linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]),
        .executableTarget(name: "kiosk-hud-bench", dependencies: ["KioskHUD", "KioskRaster", "KioskText", "KioskDevices", "KioskEmbedded"]),

        .testTarget(name: "KioskRasterTests", dependencies: ["KioskRaster", "KioskPNG"]),
        .testTarget(name: "KioskTextTests", dependencies: ["KioskText", "KioskPNG"]),
        .testTarget(name: "KioskBehaviorTests", dependencies: ["KioskBehavior"]),
        .testTarget(name: "KioskCLITests", dependencies: ["KioskCLI"]),
        .testTarget(name: "KioskDRMTests", dependencies: ["KioskDRM", "KioskSys", "CKioskSys", "KioskDevices", "KioskRaster", "KioskPNG"]),
        .testTarget(name: "KioskIIOTests", dependencies: ["KioskIIO", "KioskSys", "KioskDevices", "KioskBehavior", "KioskEmbedded",
                                                  "KioskHUD", "KioskText", "KioskRaster"]),
        .testTarget(name: "KioskInputTests", dependencies: ["KioskInput", "KioskSys", "KioskDevices"]),
        .testTarget(name: "KioskBoardsTests", dependencies: ["KioskBoards", "KioskHUD"]),
        .testTarget(name: "KioskHUDTests",
                    dependencies: ["KioskHUD", "KioskRaster", "KioskText", "KioskPNG", "KioskDevices", "KioskEmbedded"],
                    exclude: ["Goldens", "Fixtures"]),
    ]
)
