import CKioskFreeType
import KioskSys

// Owners of raw FreeType objects. Each frees its object in `deinit` and holds
// a strong reference to the object it depends on, so destruction order is
// always size → face → library.

/// Owns one `FT_Library` (FT_Init_FreeType / FT_Done_FreeType).
final class FreeTypeLibrary {
    let raw: FT_Library

    init() throws(TextError) {
        if let why = kiosk_freetype_load() { throw .unavailable(String(cString: why)) }
        var library: FT_Library?
        try ftCheck(kiosk_FT_Init_FreeType(&library), "FT_Init_FreeType")
        guard let library else { throw .freetype(call: "FT_Init_FreeType", code: -1) }
        raw = library
    }

    deinit { kiosk_FT_Done_FreeType(raw) }
}

/// Owns one `FT_Face` (FT_New_Face / FT_Done_Face) opened from a file.
final class FontFace {
    let library: FreeTypeLibrary  // keeps the FT_Library alive until after FT_Done_Face
    let raw: FT_Face
    let path: String
    let hasKerning: Bool

    /// Opens face 0 of `path` (the first face of a .ttc collection).
    init(library: FreeTypeLibrary, path: String, kernel: any KernelFiles & KernelDescriptors) throws(TextError) {
        guard let st = try? kernel.fileStatus(path) else { throw .fontNotFound(path) }
        guard st.kind == .regular else { throw TextError(.notARegularFile(path: path, kind: st.kind.description)) }
        var face: FT_Face?
        // On failure FreeType frees whatever it allocated and leaves `face` nil.
        try ftCheck(kiosk_FT_New_Face(library.raw, path, 0, &face), "FT_New_Face", path: path)
        guard let face else { throw .freetype(call: "FT_New_Face", code: -1, path: path) }
        self.library = library
        self.raw = face
        self.path = path
        self.hasKerning = kiosk_ft_has_kerning(face) != 0
    }

    deinit { kiosk_FT_Done_Face(raw) }

    /// The glyph index for `scalar`, 0 if the face has no glyph for it.
    func glyphIndex(for scalar: Unicode.Scalar) -> UInt32 {
        UInt32(kiosk_FT_Get_Char_Index(raw, FT_ULong(scalar.value)))
    }
}

/// Owns one `FT_Size` (FT_New_Size / FT_Done_Size) of a face at a pixel size,
/// so several pixel sizes can share one opened face.
final class SizedFace {
    let face: FontFace  // keeps the FT_Face alive until after FT_Done_Size
    let size: FT_Size
    let pixelSize: Int

    init(face: FontFace, pixelSize: Int) throws(TextError) {
        var size: FT_Size?
        try ftCheck(kiosk_FT_New_Size(face.raw, &size), "FT_New_Size", path: face.path)
        guard let size else { throw .freetype(call: "FT_New_Size", code: -1, path: face.path) }
        do {
            try ftCheck(kiosk_FT_Activate_Size(size), "FT_Activate_Size", path: face.path)
            try ftCheck(kiosk_FT_Set_Pixel_Sizes(face.raw, 0, FT_UInt(pixelSize)), "FT_Set_Pixel_Sizes", path: face.path)
        } catch {
            kiosk_FT_Done_Size(size)
            throw error
        }
        self.face = face
        self.size = size
        self.pixelSize = pixelSize
    }

    deinit { kiosk_FT_Done_Size(size) }

    /// Makes this size the face's active one; call before loading glyphs or
    /// asking for kerning, since other `Font`s may share the face.
    func activate() throws(TextError) {
        if face.raw.pointee.size != size {
            try ftCheck(kiosk_FT_Activate_Size(size), "FT_Activate_Size", path: face.path)
        }
    }

    /// Size metrics in whole pixels: ascender and (positive) descender.
    var lineMetrics: (ascender: Int, descender: Int) {
        let metrics = size.pointee.metrics
        // Already rounded to whole pixels by FreeType for scalable fonts.
        return (Int(metrics.ascender) >> 6, -(Int(metrics.descender) >> 6))
    }
}

/// Opened faces, one per path, shared by every `Font` of a `FontLibrary`. FreeType itself is
/// loaded and initialized when the first face is opened.
final class FaceStore {
    private var library: FreeTypeLibrary?
    private var faces: [String: FontFace] = [:]
    /// The seam font files are looked at through (stat before FreeType opens one).
    let kernel: any KernelFiles & KernelDescriptors

    init(kernel: any KernelFiles & KernelDescriptors) { self.kernel = kernel }

    /// True once a face was opened (FreeType loaded and used).
    var opened: Bool { library != nil }

    func face(at path: String) throws(TextError) -> FontFace {
        if let face = faces[path] { return face }
        let lib: FreeTypeLibrary
        if let library { lib = library } else { lib = try FreeTypeLibrary(); library = lib }
        let face = try FontFace(library: lib, path: path, kernel: kernel)
        faces[path] = face
        return face
    }
}
