import OfflineRender
import AudioEngine
import Platform
import Parameters
import Rig

/// `--set ID=PATH` for a file parameter (an LV2 plug-in's impulse response, sample): the
/// path is checked here, before anything is rendered or written, and handed to the processor,
/// which loads it when the engine is prepared (see ``Processor/settingFiles(_:)``).
package enum FileSettings {
    /// Splits `sets` into the paths of `processor`'s file parameters, by id — each checked and
    /// made absolute — and the other assignments, left for the parameter table.
    ///
    /// - Throws: a ``CommandFailure`` (exit 66) naming a file that is missing, not a regular
    ///   file, or cannot be read; (exit 65) one that holds no sound where sound is expected.
    package static func split(_ sets: [String], processor: Processor) throws(CommandFailure) -> (paths: [String: String], rest: [String]) {
        guard !processor.files.isEmpty else { return ([:], sets) }
        var paths: [String: String] = [:], rest: [String] = []
        for assignment in sets {
            guard let eq = assignment.firstIndex(of: "="),
                  let file = processor.file(String(assignment[..<eq]).trimmedSpaces) else {
                rest.append(assignment)
                continue
            }
            let path = try checked(String(assignment[assignment.index(after: eq)...]), assignment: assignment)
            if file.expectsAudio, let problem = SoundFileReader.audioProblem(at: path) {
                throw CommandFailure("--set '\(assignment)': \(problem)", exitCode: problem.exitCode)
            }
            paths[file.id] = path
        }
        return (paths, rest)
    }

    /// `path` made absolute, after checking that it names a regular file this process can read.
    package static func checked(_ path: String, assignment: String) throws(CommandFailure) -> String {
        do { return try ReadableFile.checked(path) } catch {
            throw CommandFailure("--set '\(assignment)': \(error)", exitCode: 66)
        }
    }
}

private extension String {
    var trimmedSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
