// The built kiosk-hud must not name libinput or libudev in its dynamic section: they (and glib,
// libwacom, libevdev… behind them) are loaded with dlopen once input starts, after the first
// frame (Sources/KioskInput/KioskInput.swift). A direct call to a libinput function instead of
// its kiosk_ wrapper would not link; this catches the library coming back through a link flag.
// Nor libstdc++: the little of it the Swift runtime uses is linked in statically. Nor FreeType
// and libpng (with zlib and brotli behind them): loaded with dlopen when a glyph is not in the
// glyph cache or a PNG is read or written (CKioskFreeType, CKioskPNG).
import Foundation
import Testing

@Suite struct LinkageTests {
    @Test func kioskHUDDoesNotLinkLibinputOrLibudev() throws {
        let exe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let path = URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("kiosk-hud").path
        let elf = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        let needed = try #require(neededLibraries(elf), "\(path): no 64-bit little-endian ELF with a dynamic section")
        #expect(needed.contains("libc.so.6"), "DT_NEEDED read wrongly: \(needed)")
        #expect(!needed.contains { $0.hasPrefix("libinput.") || $0.hasPrefix("libudev.") }, "\(needed)")
        // The Swift runtime's C++ needs come from libstdc++.a (Sources/kiosk-hud/LinkOrder.md).
        #expect(!needed.contains { $0.hasPrefix("libstdc++.") }, "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libfreetype.") || $0.hasPrefix("libpng") || $0.hasPrefix("libz.") }, "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libgcc_s.") }, "\(needed)")
    }
}

/// The DT_NEEDED names of a 64-bit little-endian ELF file: the entries of its SHT_DYNAMIC
/// section, named in the string table that section's sh_link points at. nil if unreadable.
private func neededLibraries(_ data: Data) -> [String]? {
    data.withUnsafeBytes { (b: UnsafeRawBufferPointer) -> [String]? in
        /// A little-endian unsigned integer of `size` bytes at `offset`.
        func u(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= b.count else { return nil }
            return (0..<size).reversed().reduce(0) { $0 << 8 | Int(b[offset + $1]) }
        }
        guard b.count > 64, Array(b[0..<6]) == [0x7f, 0x45, 0x4c, 0x46, 2, 1],  // \x7fELF, 64-bit, LE
              let shoff = u(0x28, 8), let shentsize = u(0x3a, 2), let shnum = u(0x3c, 2) else { return nil }
        func section(_ i: Int) -> (type: Int, offset: Int, size: Int, link: Int)? {
            let h = shoff + i * shentsize
            guard let t = u(h + 4, 4), let o = u(h + 0x18, 8), let s = u(h + 0x20, 8), let l = u(h + 0x28, 4) else { return nil }
            return (t, o, s, l)
        }
        guard let dyn = (0..<shnum).lazy.compactMap(section).first(where: { $0.type == 6 }),  // SHT_DYNAMIC
              let strtab = section(dyn.link) else { return nil }
        var names: [String] = []
        for entry in stride(from: dyn.offset, to: dyn.offset + dyn.size, by: 16) {  // Elf64_Dyn
            guard let tag = u(entry, 8), let value = u(entry + 8, 8) else { return nil }
            if tag == 0 { break }  // DT_NULL
            guard tag == 1 else { continue }  // DT_NEEDED
            let start = strtab.offset + value
            guard start < b.count else { return nil }
            let end = b[start...].firstIndex(of: 0) ?? b.count
            names.append(String(decoding: b[start..<end], as: UTF8.self))
        }
        return names
    }
}
