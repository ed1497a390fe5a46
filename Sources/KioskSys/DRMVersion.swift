import CKioskSys
import Glibc

/// The name a DRM card's driver gives itself (DRM_IOCTL_VERSION: "vc4", "bochs-drm",
/// "virtio_gpu"), which may differ from the name of the driver its device is bound to in sysfs
/// ("vc4-drm"); nil when `path` cannot be opened or is no DRM device. The card is open only for
/// the two calls.
public func drmDriverName(ofCard path: String, kernel: any KernelFiles & KernelDescriptors = LinuxKernel()) -> String? {
    guard let fd = try? kernel.open(path, flags: O_RDONLY | O_NONBLOCK) else { return nil }
    defer { kernel.close(fd) }
    var v = drm_version()
    guard (try? kernel.ioctl(fd, KIOSK_DRM_IOCTL_VERSION, &v, name: "DRM_IOCTL_VERSION")) != nil else { return nil }
    let n = min(Int(v.name_len), 256)
    guard n > 0 else { return nil }
    var buf = [CChar](repeating: 0, count: n + 1)
    return buf.withUnsafeMutableBufferPointer { b -> String? in
        var v2 = drm_version()
        v2.name_len = UInt(n)
        v2.name = b.baseAddress
        guard (try? kernel.ioctl(fd, KIOSK_DRM_IOCTL_VERSION, &v2, name: "DRM_IOCTL_VERSION")) != nil else { return nil }
        let bytes = UnsafeRawBufferPointer(start: b.baseAddress, count: min(n, Int(v2.name_len)))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
