// The C frame cache's card-ops seam (`kiosk_card_ops`, CKioskFrameCache.h) answered by a
// `FakeKernel`: the early frame's C code (kiosk_early_frame_show) runs against the same fake
// card as the Swift side, every call recorded and failable the same way.
import CKioskSys
import Glibc
import KioskSys

/// How the cache file's filesystem takes a read into the card's mapping.
public enum CardMappingReads: Sendable {
    /// As a local filesystem does: like any other memory.
    case allowed
    /// As 9p, NFS or FUSE do (they cannot pin a PFN mapping's pages): EFAULT, every time.
    case refused
}

extension FakeKernel {
    /// The early frame's card calls answered by this fake kernel. The kernel travels in the
    /// context pointer, unretained (the C function pointers capture nothing): keep the fake alive
    /// while the ops are used. The cache file's pread goes to the real file (recorded nowhere, as
    /// before the ops were shared), refused with EFAULT into a mapping when `reads` is `.refused`.
    public func cardOps(reads: CardMappingReads = .allowed) -> kiosk_card_ops {
        func kernel(_ c: UnsafeMutableRawPointer?) -> FakeKernel { Unmanaged<FakeKernel>.fromOpaque(c!).takeUnretainedValue() }
        func pread(_ c: UnsafeMutableRawPointer?, _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ size: Int, _ offset: Int) -> Int {
            do throws(SysError) {
                return try kernel(c).real.pread(fd, into: UnsafeMutableRawBufferPointer(start: buffer, count: size), at: offset)
            } catch { errno = error.errno; return -1 }
        }
        var ops = kiosk_card_ops(
            context: Unmanaged.passUnretained(self).toOpaque(),
            open: { c, path, flags in
                do throws(SysError) { return try kernel(c).open(String(cString: path!), flags: flags) } catch { errno = error.errno; return -1 }
            },
            close: { c, fd in kernel(c).close(fd) },
            ioctl: { c, fd, request, arg in
                do throws(SysError) { try kernel(c).ioctl(fd, request, arg, name: FakeKernel.ioctlName(request)); return 0 } catch {
                    errno = error.errno; return -1
                }
            },
            mmap: { c, fd, length, offset in
                do throws(SysError) { return try kernel(c).mmap(fd, length: length, offset: Int(offset)) } catch {
                    errno = error.errno; return UnsafeMutableRawPointer(bitPattern: -1)   // MAP_FAILED
                }
            },
            munmap: { c, p, length in kernel(c).munmap(p!, length: length) },
            pread: { c, fd, buffer, size, offset in pread(c, fd, buffer, size, Int(offset)) })
        if reads == .refused {
            ops.pread = { c, fd, buffer, size, offset in
                if let b = buffer, kernel(c).maps.contains(where: { b >= $0.key && b < $0.key + $0.value }) { errno = EFAULT; return -1 }
                return pread(c, fd, buffer, size, Int(offset))
            }
        }
        return ops
    }

    /// The name a DRM request the early frame makes is recorded under ("DRM_IOCTL_MODE_SETCRTC").
    public static func ioctlName(_ request: UInt) -> String {
        switch request {
        case KIOSK_DRM_IOCTL_SET_MASTER: "DRM_IOCTL_SET_MASTER"
        case KIOSK_DRM_IOCTL_DROP_MASTER: "DRM_IOCTL_DROP_MASTER"
        case KIOSK_DRM_IOCTL_MODE_GETCONNECTOR: "DRM_IOCTL_MODE_GETCONNECTOR"
        case KIOSK_DRM_IOCTL_MODE_GETCRTC: "DRM_IOCTL_MODE_GETCRTC"
        case KIOSK_DRM_IOCTL_MODE_SETCRTC: "DRM_IOCTL_MODE_SETCRTC"
        case KIOSK_DRM_IOCTL_MODE_CREATE_DUMB: "DRM_IOCTL_MODE_CREATE_DUMB"
        case KIOSK_DRM_IOCTL_MODE_MAP_DUMB: "DRM_IOCTL_MODE_MAP_DUMB"
        case KIOSK_DRM_IOCTL_MODE_DESTROY_DUMB: "DRM_IOCTL_MODE_DESTROY_DUMB"
        case KIOSK_DRM_IOCTL_MODE_ADDFB2: "DRM_IOCTL_MODE_ADDFB2"
        case KIOSK_DRM_IOCTL_MODE_RMFB: "DRM_IOCTL_MODE_RMFB"
        case KIOSK_DRM_IOCTL_MODE_DIRTYFB: "DRM_IOCTL_MODE_DIRTYFB"
        default: "ioctl \(request)"
        }
    }
}
