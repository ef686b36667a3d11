import Foundation
import PluginFormats
import Presets
import Testing
import TextFormats

/// A plug-in's own programs in every format that offers them: the Zam plug-ins' programs are
/// their LV2 builds' presets, and their VST3 builds offer them on a program-change parameter.
@Suite("A plug-in's own programs")
struct ProgramTests {
    /// Each preset's name and values, by parameter id.
    static func presets(_ entry: PluginEntry) throws -> [String: [String: Double]] {
        var read: [String: [String: Double]] = [:]
        for preset in entry.factoryPresets() {
            let json = try JSONParser.parse(Array(preset.jsonText.utf8))
            guard case .string(let name)? = json.member("name"), case .object(let members)? = json.member("values") else {
                Issue.record("\(entry.identifier): \(preset.fileName) is no preset")
                continue
            }
            read[name] = Dictionary(members.compactMap { member in member.value.doubleValue.map { (member.key, $0) } },
                                    uniquingKeysWith: { a, _ in a })
        }
        return read
    }

    @Test("each Zam plug-in's VST3 programs are its LV2 build's presets: the same names and values")
    func vst3ProgramsAreTheLV2Presets() throws {
        var compared = 0
        for name in SameSoundTests.zam {
            let builds = SameSoundTests.builds(name)
            guard let lv2 = builds["LV2"], let vst3 = builds["VST3"] else { Issue.record("\(name) is not installed as LV2 and VST3"); continue }
            let theirs = try Self.presets(lv2), ours = try Self.presets(vst3)
            #expect(Set(ours.keys) == Set(theirs.keys), "\(name): VST3 programs \(ours.keys.sorted()), LV2 presets \(theirs.keys.sorted())")
            let table = try vst3.processor().table
            for (preset, values) in theirs {
                guard let mine = ours[preset] else { continue }
                for (id, value) in values {
                    guard let index = try? table.index(of: id) else { continue }
                    let spec = table[index]
                    // Through the plug-in's normalized value and back, in its floats.
                    let slack = 1e-6 * (spec.range.upperBound - spec.range.lowerBound) + 1e-6 * abs(value)
                    #expect(abs((mine[id] ?? .nan) - value) <= slack, "\(name) '\(preset)' \(id): VST3 \(mine[id] ?? .nan), LV2 \(value)")
                }
                compared += 1
            }
        }
        // The Zam plug-ins with programs (ZamEQ2, ZamComp, ZamTube, …): some, or this proves nothing.
        #expect(compared >= 10, "only \(compared) programs compared")
    }
}
