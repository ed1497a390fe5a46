import KioskTestSupport

/// A binary PPM (P6, 8 bit) as QEMU's screendump writes it.
struct PPM {
    var width: Int, height: Int
    var rgb: [UInt8]

    init?(path: String) {
        guard let b = Proc.readBytes(path) else { return nil }
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < b.count {
            while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 }
            var f = ""
            while i < b.count && !(b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { f.append(Character(UnicodeScalar(b[i]))); i += 1 }
            fields.append(f)
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255" else { return nil }
        i += 1
        guard b.count >= i + w * h * 3 else { return nil }
        width = w; height = h
        rgb = Array(b[i..<(i + w * h * 3)])
    }
}
