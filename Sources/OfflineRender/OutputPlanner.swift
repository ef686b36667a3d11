import Platform

/// One file of a render: where it comes from, where it goes, and the container asked for.
public struct RenderJob: Equatable, Sendable {
    public var input: String
    public var output: String
    /// nil keeps the input's container.
    public var container: Container?
    /// The encoding the output's name or `--format opus` asks for (`.opus` is Opus in Ogg,
    /// whose container alone would keep an Ogg Vorbis input Vorbis); nil leaves it to
    /// `--subtype` and the container.
    public var subtype: Subtype?

    public init(input: String, output: String, container: Container?, subtype: Subtype? = nil) {
        self.input = input
        self.output = output
        self.container = container
        self.subtype = subtype
    }
}

/// Decides the output of each input, before anything is rendered:
///
/// - `-o OUTPUT` (one input): that path; its extension chooses the container
///   (`-o take.flac` writes FLAC) unless `--format` says otherwise.
/// - `--out-dir DIR`: `DIR/<input's name>`, with the extension of `--format` if given. A
///   stream (`-`, `/dev/stdin`) has no name of its own worth keeping, so it gets
///   `DIR/stdin.detent.<ext>`, as an output beside an input would be named. `DIR` is created
///   (with its missing parents, as `mkdir -p` does) once every output is known to be distinct.
/// - neither: `<stem>.detent.<ext>` beside each input.
///
/// Two inputs that would land on the same output are refused here, so a batch never writes
/// one file twice.
public enum OutputPlanner {
    public static func plan(
        inputs: [String], output: String?, outputFolder: String?, format: Container?
    ) throws(AudioFileError) -> [RenderJob] {
        var jobs: [RenderJob] = []
        if let output {
            let ext = PathString.split(PathString.name(of: output)).extension
            let named = ext.flatMap(Container.init(fileExtension:))
            if let format, let ext, named != nil, !format.acceptedExtensions.contains(ext.lowercased()) {
                throw .formatNotWritable(path: output, reason: "its extension says \(ext) but --format is \(format.rawValue)")
            }
            if let ext, named == nil, format == nil, !PathString.isSpecial(output) {
                throw .formatNotWritable(path: output, reason: "no container is called .\(ext); "
                    + "name the file .wav, .flac, .ogg, … or choose one with --format")
            }
            let opus = format == .opus || (ext?.lowercased() == "opus" && (format == nil || format == .ogg))
            jobs = inputs.map { RenderJob(input: $0, output: output, container: format ?? named, subtype: opus ? .opus : nil) }
        } else {
            for input in inputs {
                let stream = PathString.isSpecial(input)
                // Beside a stream (`/dev/stdin`, a FIFO) there is no place for a file.
                if outputFolder == nil && stream { throw .streamNeedsOutput(path: input) }
                let (stem, inputExt) = PathString.split(PathString.name(of: input))
                // A stream's container cannot be looked at without consuming it (unless it is
                // a file underneath, `< take.flac`): its output is WAV then, so that the name
                // says what the file holds.
                let probed = stream && format == nil ? probedExtension(input) : nil
                let container = format ?? (stream && probed == nil ? .wav : nil)
                let ext = container?.fileExtension ?? (stream ? probed : inputExt ?? probedExtension(input))
                let name = outputFolder == nil || stream ? stem + ".detent" : stem
                let file = ext.map { name + "." + $0 } ?? name
                let path = outputFolder.map { PathString.join($0, file) } ?? PathString.sibling(of: input, named: file)
                jobs.append(RenderJob(input: input, output: path, container: container, subtype: format == .opus ? .opus : nil))
            }
        }
        var claimed: [String: String] = [:]
        for job in jobs {
            let key = PathString.canonical(job.output)
            if let first = claimed[key] { throw .outputCollision(path: job.output, first: first, second: job.input) }
            claimed[key] = job.input
        }
        // Created only now, so that a refused batch leaves no folder behind.
        if let outputFolder { try createFolder(outputFolder) }
        return jobs
    }

    /// Creates `folder` and its missing parents, as `mkdir -p` does; an existing folder is
    /// fine. A render into `--out-dir` should not fail on a folder the user expects it to
    /// make, but it must say in one line why the folder cannot be made (a file in the way, no
    /// permission) before anything is written.
    ///
    /// - Throws: ``AudioFileError/writeFailed(path:reason:)`` naming `folder`, with the part of
    ///   the path that stopped it.
    public static func createFolder(_ folder: String) throws(AudioFileError) {
        if PathString.isFolder(folder) { return }
        // An empty name would put every output at the root (`/x.wav`).
        guard !folder.isEmpty else { throw .outputFolderMissing(path: folder) }
        do {
            try FolderEntries.make(folder)
        } catch {
            switch error.reason {
            case .notAFolder:
                throw .writeFailed(path: folder, reason: "\(error.folder) exists and is not a folder")
            case .system(let failure):
                // A parent that fails is named; the folder itself is already the line's subject.
                let which = error.folder == folder ? "" : " " + error.folder
                throw .writeFailed(path: folder, reason: "cannot create the folder\(which): \(failure.errno)")
            }
        }
    }

    /// The extension for an input that has none: its container's (nil when unreadable — the
    /// render reports why — and for pipes and devices, which a look would consume).
    static func probedExtension(_ input: String) -> String? {
        guard PathString.isRegularFile(input), let reader = try? SoundFileReader(path: input) else { return nil }
        if reader.format.subtype == .opus { return Container.opus.fileExtension }
        return reader.format.container?.fileExtension ?? reader.format.libraryExtension
    }
}
