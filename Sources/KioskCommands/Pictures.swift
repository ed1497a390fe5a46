import KioskBoards
import KioskCLI
import KioskHUD
import KioskPNG
import KioskRaster
import KioskSys

/// The content with its picture (`--image` for `--mode custom`), and the underlay picture, each
/// read within `pictureLimit` of the canvas.
///
/// `underlayOption` names the underlay picture in an error as the command line wrote it
/// (`ParsedArguments.written(.underlayImage)`: `--underlay` when given by that earlier name).
public func loadPictures(_ s: HUDSettings, underlayOption: String = "--underlay-image") throws -> (HUDContent, underlay: Bitmap?) {
    var content = s.content
    let limit = pictureLimit(canvasWidth: s.profile.width, canvasHeight: s.profile.height)
    if content.mode == .custom {
        guard let image = s.image else { throw UsageError("--mode custom needs --image FILE.png") }
        content.image = HUDImage(bitmap: try loadPNG(image, what: "--image", limit: limit))
    } else if s.image != nil {
        throw UsageError("--image goes with --mode custom")
    }
    let underlay = try s.underlayImage.map { try loadPNG($0, what: underlayOption, limit: limit) }
    return (content, underlay)
}

/// The logo picture (`--logo`, `[style] logo`), read within `pictureLimit` of the canvas as the
/// other pictures are (a larger one is scaled down while read; one too large to be is refused,
/// in one line naming --logo, the file and its size); nil: none. The renderer scales it once
/// more, to `logo_size`.
public func loadLogo(_ s: HUDSettings) throws -> Bitmap? {
    let limit = pictureLimit(canvasWidth: s.profile.width, canvasHeight: s.profile.height)
    return try s.profile.logo.map { try loadPNG($0, what: "--logo", limit: limit) }
}

/// How a picture (--image, --underlay, --logo) is decoded for a canvas of `canvasWidth` x
/// `canvasHeight` pixels, decided from the PNG's header before anything is decoded. Neither
/// picture is ever shown larger than the canvas (the underlay is scaled to fill it; the custom
/// image sits in the bezel), so: up to 4 times the canvas's pixels decode as is; a larger
/// non-interlaced PNG is box-filtered down while read to fit twice the canvas on each side
/// (the factor 2 keeps the underlay's own scaling to the canvas a reduction, so no detail is
/// lost to decoding smaller); a larger interlaced one is refused. A picture thus takes at most
/// 4 x 4 bytes per canvas pixel (plus a few rows while read) whatever the file claims.
public func pictureLimit(canvasWidth: Int, canvasHeight: Int) -> PNGReadLimit {
    PNGReadLimit(maxPixels: 4 * canvasWidth * canvasHeight,
                 maxWidth: min(2 * canvasWidth, Bitmap.maxDimension), maxHeight: min(2 * canvasHeight, Bitmap.maxDimension))
}

/// A picture that cannot be read or written, in one line naming the option, the file and why
/// (`--image x.png: not a regular file (a FIFO)`); the command line itself was fine, so no usage.
public struct PictureError: Error, CustomStringConvertible {
    /// "--image x.png: why".
    public var description: String
}

/// The PNG at `path` (given as option `what`) as a bitmap, within `limit`; opened with `user`'s
/// rights when given (a picture a daemon's client named), else with this process's.
///
/// The daemon calls this on its event loop thread (a client's `style`/`update` naming a
/// picture): the loop waits while the picture is decoded. That wait is bounded by `limit` (no
/// more than 4 x the canvas's pixels kept, larger pictures box-filtered while read) and by the
/// file being a regular file opened without blocking; the worst case, a 16384x16384 PNG read
/// down to the canvas, is about 1 s (libpng's row API, CKioskPNG built -O2). Moving it to a
/// thread would let two pictures of one client race their replies; a client that sends such a
/// picture delays the other clients by that much, and no more.
public func loadPNG(_ path: String, what: String, limit: PNGReadLimit, as user: PeerCredentials? = nil) throws -> Bitmap {
    guard !path.isEmpty else { throw UsageError("\(what): empty path") }
    // Decoded straight into the bitmap and premultiplied there: one picture-sized buffer while
    // it is read, not an RGBA array and a bitmap (16 MB → 8 MB for a 1920x1080 underlay, which a
    // daemon reads while the one it replaces is still shown).
    var bitmap: Bitmap?, refusal: Error?
    do {
        _ = try PNG.read(path: path, limit: limit, as: user) { width, height in
            do { bitmap = try Bitmap.forStraightRGBA(width: width, height: height) } catch { refusal = error; return nil }
            return bitmap?.rawBytes
        }
    } catch {
        if let refusal { throw PictureError(description: "\(what) \(path): \(refusal)") }
        throw PictureError(description: "\(what) \(error)")
    }
    guard let bitmap else { throw PictureError(description: "\(what) \(path): not decoded") }
    bitmap.premultiplyStraightRGBA()
    return bitmap
}

/// Writes `bitmap` as a PNG at `path`; `what` (e.g. "--out") names the option in errors.
public func writePNG(_ bitmap: Bitmap, to path: String, what: String? = nil) throws {
    let prefix = what.map { "\($0) " } ?? ""
    guard !path.isEmpty else { throw UsageError("\(what ?? "output"): empty path") }
    do {
        // Row by row: one row in memory besides the bitmap, whatever its size.
        let alpha = !bitmap.isOpaque
        try PNG.write(width: bitmap.width, height: bitmap.height, alpha: alpha, path: path) { y, row in
            bitmap.straightRow(y, alpha: alpha, into: row)
        }
    } catch {
        throw PictureError(description: prefix + error.description)
    }
}

/// Refuses an output path that cannot take a PNG before any work is done: empty, or an existing
/// FIFO, device or directory (PNG.write checks again when writing); looked at through `kernel`.
public func checkOutputPath(_ path: String, what: String, kernel: any Kernel = LinuxKernel()) throws {
    guard !path.isEmpty else { throw UsageError("\(what): empty path") }
    if let status = try? kernel.fileStatus(path), status.kind != .regular {
        throw PictureError(description: "\(what) \(path): not a regular file (\(status.kind))")
    }
}
