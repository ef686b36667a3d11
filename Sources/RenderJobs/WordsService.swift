import AudioEngine
import CPlatform
import Glibc
import Parameters
import Platform
import Rig

/// Answers for a plug-in's own words on behalf of a host that runs the plug-in isolated
/// (``HelperTexts`` asks): the one body of `detent words` and of Python's
/// `detent._slot words`. The plug-in is found as a sandbox finds it (its file, or its
/// identifier, which must still be what the file holds) and asked through its rows' own
/// words, which make an instance of their own here. Questions come on descriptor 3.
package enum WordsService {
    /// The descriptor questions come on and answers go back on.
    package static let descriptor: Int32 = 3

    /// Serves until the host closes its end; the exit status (1, said on standard error, when
    /// the plug-in is not found).
    package static func serve(reference: String, identifier: String) -> Int32 {
        _ = detent_die_with_parent(SIGKILL, getppid())
        let socket = LineSocket(descriptor: descriptor)
        guard let processor = try? ProcessorReference.processor(reference), processor.identifier == identifier else {
            Console.error("words: \(reference) does not hold \(identifier)")
            return 1
        }
        let table = processor.table
        while case .line(let bytes) = socket.receive(waiting: -1) {
            let words = String(decoding: bytes, as: UTF8.self).split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            var answer: String?
            if words.count == 3, let row = Int(words[1]), (0..<table.count).contains(row),
               let texts = table[ParameterIndex(row)].ownTexts?.texts {
                switch words[0] {
                case "t": answer = Double(words[2]).flatMap(texts.text(for:))
                case "v": answer = texts.value(for: String(words[2])).map { "\($0)" }
                default: break
                }
            }
            guard socket.send(answer.map { "=\t" + $0 } ?? "-") else { break }
        }
        return 0
    }
}
