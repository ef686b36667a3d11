import AudioEngine
import OfflineRender
import Platform
import Rig

/// `--sidechain [SLOT=]FILE`: which slot's side-chain inputs hear which file.
package enum SidechainChoice {
    /// The keys `texts` ask for, checked against `processor`: a slot named that has side-chain
    /// inputs (or, with the file alone, the one slot that has them), each slot keyed once,
    /// each file readable audio.
    ///
    /// - Throws: ``UsageError`` naming the problem.
    package static func resolve(_ texts: [String], processor: Processor) throws -> [RenderSettings.Sidechain] {
        guard !texts.isEmpty else { return [] }
        // The slots as the engine numbers them: a chain's, or the processor alone as slot 0
        // (named as it would be in a chain: `zamcomp`).
        let slots = processor.chainParts
        let keyed = processor.keyedSlots
        var keys: [RenderSettings.Sidechain] = []
        for text in texts {
            let slot: Int, path: String
            if let (name, file) = split(text, slots: slots) {
                guard let index = slots.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
                    throw UsageError("--sidechain \(text): no slot '\(name)' (slots: \(slots.map(\.name).joined(separator: ", ")))")
                }
                guard slots[index].processor.sideInputs > 0 else {
                    throw UsageError("--sidechain \(text): \(slots[index].processor.name) (slot '\(name)') has no side-chain input")
                }
                guard keyed.contains(index) else {
                    throw UsageError("--sidechain \(text): the graph wires slot '\(name)''s side chain itself (\(name):sidechain)")
                }
                slot = index
                path = file
            } else {
                guard let only = keyed.first else {
                    throw UsageError("--sidechain \(text): "
                        + (processor.slots.isEmpty ? "\(processor.name) has no side-chain input" : "no slot of the chain has a side-chain input"))
                }
                guard keyed.count == 1 else {
                    throw UsageError("--sidechain \(text): slots \(keyed.map { slots[$0].name }.joined(separator: ", ")) have side-chain inputs; say which: SLOT=FILE")
                }
                slot = only
                path = text
            }
            guard !keys.contains(where: { $0.slot == slot }) else {
                throw UsageError("--sidechain \(text): slot '\(slots[slot].name)' is keyed twice")
            }
            if let problem = SoundFileReader.audioProblem(at: path) {
                throw UsageError("--sidechain " + problem.description)
            }
            keys.append(RenderSettings.Sidechain(slot: slot, path: path))
        }
        return keys
    }

    /// A graph's named inputs that `texts` (`NAME=FILE`) feed; each input of the graph
    /// given no file is silent, which `warn` says once.
    ///
    /// - Throws: ``UsageError`` naming the problem.
    package static func resolveInputs(_ texts: [String], processor: Processor, warn: Bool) throws -> [RenderSettings.Sidechain] {
        let names = [GraphRouting.mainInput] + processor.namedInputs
        var inputs: [RenderSettings.Sidechain] = []
        for text in texts {
            guard processor.routing != nil else { throw UsageError("--input \(text): named inputs are a graph's (--graph FILE)") }
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw UsageError("--input \(text): expected NAME=FILE")
            }
            let name = String(text[..<equals]), path = String(text[text.index(after: equals)...])
            guard let k = names.firstIndex(where: { $0.lowercased() == name.lowercased() }), k > 0 else {
                let named = names.dropFirst()
                throw UsageError("--input \(text): the graph has no input '\(name)'"
                    + (named.isEmpty ? " (it has none but the main one)" : " (its named inputs: \(named.joined(separator: ", ")))"))
            }
            guard !inputs.contains(where: { $0.namedInput == k }) else { throw UsageError("--input \(text): '\(name)' is given twice") }
            if let problem = SoundFileReader.audioProblem(at: path) { throw UsageError("--input " + problem.description) }
            inputs.append(RenderSettings.Sidechain(slot: -1, path: path, namedInput: k))
        }
        if warn {
            for k in names.indices.dropFirst() where !inputs.contains(where: { $0.namedInput == k }) {
                Console.warning("the graph's input '\(names[k])' is silent: give it a file with --input \(names[k])=FILE")
            }
        }
        return inputs
    }

    /// `SLOT=FILE` split, when the text names a slot of a chain that way (a file whose own
    /// name holds `=` is taken whole when it exists).
    private static func split(_ text: String, slots: [(name: String, processor: Processor)]) -> (String, String)? {
        guard let equals = text.firstIndex(of: "="),
              !PathString.exists(text) else { return nil }
        let name = String(text[..<equals]), file = String(text[text.index(after: equals)...])
        guard Processor.isSlotName(name), !file.isEmpty else { return nil }
        return (name, file)
    }
}
