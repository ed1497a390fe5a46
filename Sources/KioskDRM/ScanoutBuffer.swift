import CKioskSys
import KioskRaster
import KioskSys

/// A DRM fourcc for a scanout pixel format.
func fourcc(_ f: PixelFormat) -> UInt32 {
    switch f {
    case .xrgb8888, .argb8888: KIOSK_DRM_FORMAT_XRGB8888
    case .rgb565: KIOSK_DRM_FORMAT_RGB565
    }
}

/// One scanout buffer: a dumb buffer, its framebuffer and its mapping, plus the picture
/// rectangles that changed since it was last written (a buffer is written every other frame, so
/// it collects the last two frames' damage — or more, if frames were skipped).
final class ScanoutBuffer {
    let card: DRMCard
    let info: DumbBufferInfo
    let fbID: UInt32
    let memory: UnsafeMutableRawPointer
    /// The panel-sized view of the mapping (stride = the buffer's pitch).
    let surface: Surface
    /// Picture rectangles not yet copied into this buffer.
    var pending = DamageRegion()
    /// Nothing copied yet: the whole picture is owed.
    var owesEverything = true
    private var released = false

    /// A buffer from its parts: `create`'s, or one made by someone else (the early frame),
    /// released like ours.
    init(card: DRMCard, info: DumbBufferInfo, fbID: UInt32, memory: UnsafeMutableRawPointer, surface: Surface) {
        self.card = card; self.info = info; self.fbID = fbID; self.memory = memory; self.surface = surface
    }

    /// CREATE_DUMB → MAP_DUMB → mmap → ADDFB2; a failing step undoes the ones before it.
    static func create(card: DRMCard, width: Int, height: Int, format: PixelFormat) throws -> ScanoutBuffer {
        let info = try card.createDumb(width: width, height: height, bpp: format.bytesPerPixel * 8)
        var memory: UnsafeMutableRawPointer?
        do {
            let offset = try card.mapDumbOffset(info.handle)
            memory = try card.map(offset: offset, length: info.size)
            let fb = try card.addFramebuffer(width: width, height: height, fourcc: fourcc(format), handle: info.handle, pitch: info.pitch)
            do {
                let surface = try Surface(base: memory!, width: width, height: height, stride: info.pitch, format: format)
                return ScanoutBuffer(card: card, info: info, fbID: fb, memory: memory!, surface: surface)
            } catch {
                try? card.removeFramebuffer(fb)
                throw error
            }
        } catch {
            if let memory { card.unmap(memory, length: info.size) }
            try? card.destroyDumb(info.handle)
            throw error
        }
    }

    /// RMFB, munmap, DESTROY_DUMB (each attempted even if one fails; the first error is returned).
    @discardableResult
    func release(keepFramebuffer: Bool = false) -> SysError? {
        guard !released else { return nil }
        released = true
        var first: SysError?
        if !keepFramebuffer {
            do { try card.removeFramebuffer(fbID) } catch { first = first ?? error }
        }
        card.unmap(memory, length: info.size)
        if !keepFramebuffer {
            do { try card.destroyDumb(info.handle) } catch { first = first ?? error }
        }
        return first
    }
}
