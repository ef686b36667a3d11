import Platform

/// clang's RealtimeSanitizer runtime as a shared library, which the real-time audit preloads
/// into its child (`LD_PRELOAD`): the child is Detent itself, unchanged, and the runtime's
/// interceptors see every call the plug-in makes while its `run()` is marked real-time.
///
/// Toolchains ship the runtime only as a static archive, linked into programs built with
/// `-fsanitize=realtime`. A shared library is made from it once, with `ar` and `cc`, and kept
/// in `$XDG_CACHE_HOME/detent` (default `~/.cache/detent`): every member but the one that
/// starts the runtime from `.preinit_array` (which a shared library may not have; the audit's
/// child starts the runtime itself, ``detent_rtsan_start``).
enum SanitizerRuntime {
    /// Names a runtime to use instead (a shared RealtimeSanitizer runtime built elsewhere).
    static let overrideVariable = "DETENT_RTSAN_RUNTIME"

    /// Why no runtime is available, as one line.
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    /// The path of a shared runtime: the override, the cached build, or one built now.
    static func path() throws(Missing) -> String {
        if let given = Environment.value(overrideVariable), !given.isEmpty {
            guard PathString.isReadable(given) else {
                throw Missing(description: "\(overrideVariable) names '\(given)', which cannot be read")
            }
            return given
        }
        guard let (archive, version) = archive() else {
            throw Missing(description: "the real-time audit needs clang's RealtimeSanitizer runtime "
                + "(lib/clang/*/lib/linux/libclang_rt.rtsan-\(architecture).a beside a `swift` or `clang` in PATH), "
                + "or \(overrideVariable) naming a shared build of it")
        }
        guard let cache = Environment.cacheFolder else {
            throw Missing(description: "no cache folder for the real-time audit's runtime: set XDG_CACHE_HOME or HOME")
        }
        let cached = cache + "/librtsan-\(version)-\(architecture).so"
        if PathString.isReadable(cached) { return cached }
        try build(from: archive, into: cached, cache: cache)
        return cached
    }

    #if arch(x86_64)
    static let architecture = "x86_64"
    #elseif arch(arm64)
    static let architecture = "aarch64"
    #else
    static let architecture = "unsupported"
    #endif

    /// The newest runtime archive of a toolchain found through `swift` or `clang` in `PATH`
    /// (following links to the toolchain's real folder), with its clang version.
    static func archive() -> (path: String, version: String)? {
        for tool in ["swift", "clang"] {
            guard let found = executable(tool), let real = PathString.resolved(found) else { continue }
            let bin = real.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            let clang = bin + "/../lib/clang"
            let versions = entries(of: clang).sorted { numbers($0).lexicographicallyPrecedes(numbers($1)) }.reversed()
            for version in versions {
                let path = "\(clang)/\(version)/lib/linux/libclang_rt.rtsan-\(architecture).a"
                if PathString.isReadable(path), let resolved = PathString.resolved(path) { return (resolved, version) }
            }
        }
        return nil
    }

    /// A version's numbers (`17.0.6` → 17, 0, 6), for sorting versions.
    private static func numbers(_ version: String) -> [Int] {
        version.split(separator: ".").map { Int($0) ?? 0 }
    }

    /// Extracts the archive into a fresh folder beside `target`, links its members into a
    /// shared library there, and renames it into place: a run that stops half-way, or two
    /// audits building at once, never leave a partial library under the cached name.
    private static func build(from archive: String, into target: String, cache: String) throws(Missing) {
        guard let ar = executable("ar"), let cc = executable("cc") else {
            throw Missing(description: "making the real-time audit's runtime needs `ar` and `cc` in PATH (binutils, gcc), "
                + "or \(overrideVariable) naming a shared build of clang's RealtimeSanitizer runtime")
        }
        do { try FolderEntries.make(cache, mode: 0o755) } catch {
            let reason = if case .system(let failure) = error.reason { failure.errno.description } else { "not a folder" }
            throw Missing(description: "cannot create '\(error.folder)': \(reason)")
        }
        let work: String
        do { work = try TemporaryFile.createFolder(prefix: cache + "/.rtsan-") } catch {
            throw Missing(description: "cannot create a folder in '\(cache)': \(error.errno)")
        }
        defer { FolderEntries.remove(folder: work) }

        let failed = { (step: String, outcome: ChildProgram.Outcome) in
            let detail = outcome.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(outcome.status)"
            return Missing(description: "making the real-time audit's runtime failed at `\(step)`: \(detail)")
        }
        let listed: ChildProgram.Outcome
        do {
            listed = try ChildProgram.run(ar, ["t", archive])
            guard listed.status == .exited(0) else { throw failed("ar t", listed) }
            let extracted = try ChildProgram.run(ar, ["x", "--output=" + work, archive])
            guard extracted.status == .exited(0) else { throw failed("ar x", extracted) }
            let members = listed.text.split(whereSeparator: \.isNewline).map(String.init)
                .filter { $0.hasSuffix(".o") && !$0.contains("preinit") }
            let library = work + "/librtsan.so"
            let linked = try ChildProgram.run(cc, ["-shared", "-o", library] + members.map { work + "/" + $0 }
                                                  + ["-lpthread", "-ldl", "-lm"])
            guard linked.status == .exited(0) else { throw failed("cc -shared", linked) }
            do { try PathString.rename(library, to: target) } catch {
                throw Missing(description: "cannot move the real-time audit's runtime to '\(target)': \(error.errno)")
            }
        } catch let error as Missing {
            throw error
        } catch {
            throw Missing(description: "making the real-time audit's runtime failed: \(error)")
        }
    }

    // MARK: File system

    /// The first `name` in `PATH` that can be run.
    static func executable(_ name: String) -> String? {
        let path = Environment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            if PathString.isExecutable(candidate) { return candidate }
        }
        return nil
    }


    /// The names in a folder, without `.` and `..`; none when it cannot be read.
    static func entries(of folder: String) -> [String] {
        (try? FolderEntries.names(in: folder)) ?? []
    }
}
