/// One file of a render: where it comes from, where it goes, and the container asked for.
public struct RenderJob: Equatable, Sendable {
    public var input: String
    public var output: String
    /// nil keeps the input's container.
    public var container: Container?
    /// The encoding the output's name asks for (`.opus` is Opus in Ogg); nil leaves it to
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
/// - `--out-dir DIR`: `DIR/<input's name>`, with the extension of `--format` if given.
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
            let subtype: Subtype? = ext?.lowercased() == "opus" && (format == nil || format == .ogg) ? .opus : nil
            jobs = inputs.map { RenderJob(input: $0, output: output, container: format ?? named, subtype: subtype) }
        } else {
            if let outputFolder, !PathString.isFolder(outputFolder) { throw .outputFolderMissing(path: outputFolder) }
            for input in inputs {
                // Beside a stream (`/dev/stdin`, a FIFO) there is no place for a file.
                if outputFolder == nil && PathString.isSpecial(input) { throw .streamNeedsOutput(path: input) }
                let (stem, inputExt) = PathString.split(PathString.name(of: input))
                let ext = format?.fileExtension ?? inputExt ?? probedExtension(input)
                let name = outputFolder == nil ? stem + ".detent" : stem
                let file = ext.map { name + "." + $0 } ?? name
                let path = outputFolder.map { PathString.join($0, file) } ?? PathString.sibling(of: input, named: file)
                jobs.append(RenderJob(input: input, output: path, container: format))
            }
        }
        var claimed: [String: String] = [:]
        for job in jobs {
            let key = PathString.canonical(job.output)
            if let first = claimed[key] { throw .outputCollision(path: job.output, first: first, second: job.input) }
            claimed[key] = job.input
        }
        return jobs
    }

    /// The extension for an input that has none: its container's (nil when unreadable — the
    /// render reports why — and for pipes and devices, which a look would consume).
    static func probedExtension(_ input: String) -> String? {
        guard PathString.isRegularFile(input), let reader = try? SoundFileReader(path: input) else { return nil }
        return reader.format.container?.fileExtension ?? reader.format.libraryExtension
    }
}
