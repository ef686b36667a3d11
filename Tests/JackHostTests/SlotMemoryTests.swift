import AudioEngine
import CSlot
import Foundation
import Isolation
import LV2
import Parameters
import Testing
import TestSupport

/// The shared memory of an isolated slot is the one thing its process can touch in the host:
/// it can neither resize the block (a shrunk block would be a SIGBUS in the host's next copy)
/// nor steer the host's copies by rewriting the block's offsets.
@Suite("Isolated slot memory")
struct SlotMemoryTests {
    static let plugin = "http://drobilla.net/plugins/mda/Overdrive"

    /// A plug-in in a slot process, and the kernel that reaches it.
    static func slot() throws -> (IsolatedSlot, ExternalKernel) {
        let slot = try IsolatedSlot.start(try JackTests.LivePluginTests.processor(plugin), files: [], state: nil,
                                          format: KernelFormat(sampleRate: 48_000, maxFrames: 256, channels: 2),
                                          launcher: SlotLauncher(program: try BuiltProducts.detent))
        return (slot, slot.prepared.kernel)
    }

    /// One run of 256 frames of a ramp through `kernel`; the first output channel.
    static func run(_ kernel: ExternalKernel) throws -> [Float] {
        let table = try JackTests.LivePluginTests.processor(plugin).table
        let controls = table.indices.map { Float(table[$0].defaultValue) }
        var inputs = (0..<2).map { _ in (0..<256).map { Float($0) / 256 } }
        var outputs = [[Float]](repeating: [Float](repeating: 0, count: 256), count: 2)
        inputs.withUnsafeMutableBufferPointer { ins in
            outputs.withUnsafeMutableBufferPointer { outs in
                let inPointers = ins.map { UnsafePointer($0.withUnsafeBufferPointer { $0.baseAddress! }) }
                let outPointers = outs.indices.map { outs[$0].withUnsafeMutableBufferPointer { $0.baseAddress! } }
                inPointers.withUnsafeBufferPointer { i in
                    outPointers.withUnsafeBufferPointer { o in
                        kernel.run(kernel.context, controls, i.baseAddress!, o.baseAddress!, 2, 256)
                    }
                }
            }
        }
        return outputs[0]
    }

    @Test("the slot's process cannot shrink or grow the block: the host plays on")
    func theBlockIsSealed() throws {
        let (slot, kernel) = try Self.slot()
        _ = try Self.run(kernel)
        // The slot's copy of the block is its descriptor 3 (SlotLauncher hands it so).
        let block = "/proc/\(slot.processID)/fd/3"
        #expect(truncate(block, 0) == -1 && errno == EPERM, "shrinking is refused")
        #expect(truncate(block, 1 << 30) == -1 && errno == EPERM, "growing is refused")
        let out = try Self.run(kernel)
        #expect(out.contains { $0 != 0 }, "the slot still plays")
    }

    @Test("offsets the slot's process writes into the block do not move the host's copies")
    func theHostKeepsItsOwnLayout() throws {
        let (slot, kernel) = try Self.slot()
        let before = try Self.run(kernel)
        // What a hostile process could write: every offset far past the block's end, the
        // shape larger than the host made it. (Written through the slot's own descriptor.)
        let fd = open("/proc/\(slot.processID)/fd/3", O_RDWR)
        #expect(fd >= 0)
        defer { close(fd) }
        let size = MemoryLayout<DetentSlotShared>.size
        let mapped = try #require(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0))
        defer { munmap(mapped, size) }
        let head = mapped.assumingMemoryBound(to: DetentSlotShared.self)
        for offset in [\DetentSlotShared.off_controls, \.off_inputs, \.off_outputs, \.off_side, \.off_events, \.off_midi_out, \.off_values] {
            head.pointee[keyPath: offset] = 1 << 40
        }
        head.pointee.channels = 1 << 20
        head.pointee.max_frames = 1 << 20
        head.pointee.controls = 1 << 30
        // The host copies in and out where it laid the block out: it lives, the slot plays.
        let after = try Self.run(kernel)
        #expect(after.count == before.count)
    }
}
