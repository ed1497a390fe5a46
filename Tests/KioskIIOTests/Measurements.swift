// Costs quoted in the module comment (KioskIIO.swift). Printed, with loose bounds only.
import KioskPresentation
import KioskSeams
import KioskIIO
import KioskSys
import Testing

@Suite(.serialized) struct Measurements {
    @Test func costOfOneSampleAndOfTheConsumerSide() throws {
        let fs = FakeSysfs()
        fs.addAccelerometer(0)
        let acc = try IIOAccelerometer(device: IIODiscovery.accelerometers(root: fs.root)[0])
        let n = 20_000
        for _ in 0..<1000 { _ = try acc.read() }           // warm up
        var t0 = monotonicSeconds()
        for _ in 0..<n { _ = try acc.read() }
        let read = (monotonicSeconds() - t0) / Double(n)

        let source = IIOMotionSource()
        let sampler = IIOSampler(settings: .init(root: fs.root), log: { _ in })
        t0 = monotonicSeconds()
        for i in 0..<n { source.pump(sampler, at: Double(i)) ; _ = source.samples(until: Double(i)) }
        let pumpAndTake = (monotonicSeconds() - t0) / Double(n)

        t0 = monotonicSeconds()
        for i in 0..<n { _ = source.samples(until: Double(i)); _ = source.isDelivering(at: Double(i)) }
        let consumer = (monotonicSeconds() - t0) / Double(n)

        var f = TiltFilter()
        t0 = monotonicSeconds()
        var sink = 0.0
        for i in 0..<n {
            f.add(x: Double(i % 7) * 0.1, y: 0.2, z: 9.8, at: Double(i) / 30)
            sink += f.value(at: Double(i) / 30).x
        }
        let filter = (monotonicSeconds() - t0) / Double(n)
        print("""
            measurements (fake tree on \(fs.prefix.hasPrefix("/tmp") ? "/tmp" : fs.prefix), debug build):
              one sample read (existence check + 3 preads + parse + matrix): \(Int(read * 1e9)) ns
              sampler step + publish + take:                                  \(Int(pumpAndTake * 1e9)) ns
              consumer: samples(until:) + isDelivering (uncontended mutex):   \(Int(consumer * 1e9)) ns
              TiltFilter add + value:                                          \(Int(filter * 1e9)) ns
            """)
        #expect(sink.isFinite)
        #expect(read < 0.001 && consumer < 0.0001 && filter < 0.0001)
    }
}
