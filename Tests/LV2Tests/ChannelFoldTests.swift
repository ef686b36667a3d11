import CPluginKernel
import Testing

/// The channel rule for plug-ins whose ports do not match the file (`detent_lv2_fold`): more
/// sources than destinations, the mean of every n-th; fewer, copies in turn.
@Suite("Channel folding")
struct ChannelFoldTests {
    func fold(_ sources: [[Float]], into count: Int) -> [[Float]] {
        let frames = sources[0].count
        let ins = sources.map { s -> UnsafeMutablePointer<Float> in
            let p = UnsafeMutablePointer<Float>.allocate(capacity: frames)
            p.initialize(from: s, count: frames)
            return p
        }
        let outs = (0..<count).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: frames) }
        defer { (ins + outs).forEach { $0.deallocate() } }
        let constIns = ins.map { UnsafePointer($0) }
        constIns.withUnsafeBufferPointer { i in
            outs.withUnsafeBufferPointer { o in
                detent_lv2_fold(i.baseAddress!, UInt32(sources.count), o.baseAddress!, UInt32(count), UInt32(frames))
            }
        }
        return outs.map { Array(UnsafeBufferPointer(start: $0, count: frames)) }
    }

    @Test("more sources: each destination is the mean of the sources n apart")
    func down() {
        // Three outputs into two channels: 0 ← mean(0, 2), 1 ← 1.
        #expect(fold([[1, 2], [10, 20], [3, 6]], into: 2) == [[2, 4], [10, 20]])
        // A mono-to-stereo plug-in's two sides into a mono file: their mean.
        #expect(fold([[1, -1], [3, 5]], into: 1) == [[2, 2]])
    }

    @Test("fewer sources: copies in turn")
    func up() {
        #expect(fold([[1, 2]], into: 2) == [[1, 2], [1, 2]])
        #expect(fold([[1], [2]], into: 3) == [[1], [2], [1]])
    }

    @Test("equal counts: a copy")
    func same() {
        #expect(fold([[1, 2], [3, 4]], into: 2) == [[1, 2], [3, 4]])
    }
}
