import Platform

/// The first call stack the RealtimeSanitizer runtime reported for each finding, with the
/// functions named: the runtime runs with `symbolize=false` (naming every frame of every
/// report would slow the audit down), so the frames it prints — a module and an offset each —
/// are named here, once, by `llvm-symbolizer` (found beside `swift` or `clang`, else in
/// `PATH`), which also reads the names a stripped plug-in library exports. Without it, the
/// frames are shown as the runtime printed them.
enum RealtimeAuditStacks {
    /// A frame as the runtime printed it: `#3 0x55… (/usr/lib/…/plugin.so+0x1a2b)`.
    struct Frame: Hashable {
        var module: String
        var offset: String
    }

    /// The frame a stack line holds, or nil for another line.
    static func frame(in line: String) -> Frame? {
        guard line.hasPrefix("    #"), let open = line.firstIndex(of: "("),
              let close = line[open...].firstIndex(of: ")") else { return nil }
        let inside = line[line.index(after: open)..<close]
        guard let plus = inside.lastIndex(of: "+"), inside[inside.index(after: plus)...].hasPrefix("0x") else { return nil }
        return Frame(module: String(inside[..<plus]), offset: String(inside[inside.index(after: plus)...]))
    }

    /// The frames worth showing: after the runtime's own interceptor, up to and including
    /// the kernel's entry (`detent_lv2_run`: what called it is the engine), at most `most`.
    static let most = 8

    /// Each stack as `function (where)` lines, outermost call last.
    static func named(_ stacks: [[Frame]]) -> [[String]] {
        let shown = stacks.map { $0.filter { !$0.module.contains("rtsan") } }
        let names = tool().map { symbolize(Set(shown.joined()), with: $0) } ?? [:]
        return shown.map { stack in
            var lines: [String] = []
            for frame in stack {
                let module = frame.module.split(separator: "/").last.map(String.init) ?? frame.module
                let name = names[frame]
                lines.append(name.map { "\($0.function) (\($0.place ?? module))" } ?? "\(module)+\(frame.offset)")
                if name?.function == "detent_lv2_run" || lines.count == most { break }
            }
            return lines
        }
    }

    /// The function at each frame and its source place (`file.c:38`), where the symbolizer
    /// knows them: one run of it per module, with all of that module's offsets.
    private static func symbolize(_ frames: Set<Frame>, with tool: String) -> [Frame: (function: String, place: String?)] {
        var named: [Frame: (function: String, place: String?)] = [:]
        for (module, group) in Dictionary(grouping: frames, by: \.module) {
            let offsets = group.map(\.offset)
            guard let outcome = try? ChildProgram.run(tool, ["--no-inlines", "--obj=\(module)"] + offsets, timeLimit: .seconds(20)),
                  outcome.status == .exited(0) else { continue }
            // Two lines an address (the function, then `file:line:column`), and a blank line.
            let blocks = outcome.text.split(separator: "\n", omittingEmptySubsequences: false)
                .split(separator: "", omittingEmptySubsequences: true)
            for (offset, block) in zip(offsets, blocks) {
                guard let function = block.first.map(String.init), function != "??" else { continue }
                var place: String?
                if block.count > 1, !block[block.startIndex + 1].hasPrefix("??") {
                    // `/path/to/file.c:38:5` → `file.c:38`
                    let parts = block[block.startIndex + 1].split(separator: "/").last.map { $0.split(separator: ":") } ?? []
                    if parts.count >= 2, parts[1] != "0" { place = "\(parts[0]):\(parts[1])" }
                }
                named[Frame(module: module, offset: offset)] = (function, place)
            }
        }
        return named
    }

    private static func tool() -> String? {
        for name in ["swift", "clang"] {
            guard let found = SanitizerRuntime.executable(name), let real = PathString.resolved(found) else { continue }
            let beside = real.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
                + "/llvm-symbolizer"
            if PathString.isExecutable(beside) { return beside }
        }
        return SanitizerRuntime.executable("llvm-symbolizer")
    }
}
