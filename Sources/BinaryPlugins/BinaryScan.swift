import Glibc
import Platform
import Synchronization
import TextFormats

/// Reads binary plug-ins in child processes, so that one that crashes or hangs while it loads
/// — some do, in their constructors or factories — is listed as failed with why, and never
/// takes the listing (or a live host looking up a plug-in) down with it.
///
/// Each binary is read by a child of its own (``ScanHelper``), several at once, each given
/// ``deadline``: past it the child is killed. The child writes each plug-in as one line,
/// ``marker`` then its JSON; whatever else a plug-in prints on its way is not read as data.
package enum BinaryScan {
    /// The longest one binary may take to be read.
    package static let deadline: Duration = .seconds(10)

    /// Set for a child that reads binaries without sweeping their parameters
    /// (``BinaryBackend/scanWithoutSweeps(_:)``).
    static let withoutSweeps = "DETENT_SCAN_WITHOUT_SWEEPS"
    /// What starts each line of a plug-in in the child's output.
    package static let marker = "detent-scan\t"

    /// The plug-ins of each of `paths`, read in children (in this process when there is no
    /// helper program).
    package static func scan(_ backend: any BinaryBackend, paths: [String]) -> [String: [BinaryPlugin]] {
        guard !paths.isEmpty else { return [:] }
        guard let helper = ScanHelper.current else {
            return Dictionary(uniqueKeysWithValues: paths.map { ($0, backend.scan($0)) })
        }
        let results = Mutex<[String: [BinaryPlugin]]>([:])
        let next = Atomic<Int>(0)
        let workers = min(paths.count, max(2, ThisProcess.processorCount * 2))
        let work: @Sendable () -> Void = {
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < paths.count else { return }
                let found = scanOne(backend, path: paths[i], helper: helper)
                results.withLock { $0[paths[i]] = found }
            }
        }
        var threads: [NamedThread] = []
        for n in 1..<workers {
            if let thread = try? NamedThread(name: "scan-\(n)", work) { threads.append(thread) }
        }
        work()
        for thread in threads { thread.join() }
        return results.withLock { $0 }
    }

    /// One binary, read by the helper.
    static func scanOne(_ backend: any BinaryBackend, path: String, helper: ScanHelper) -> [BinaryPlugin] {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        func failed(_ reason: String) -> [BinaryPlugin] {
            [BinaryPlugin(format: backend.name, path: path, identifier: path, name: name, problem: reason)]
        }
        var outcome: ChildProgram.Outcome
        do {
            outcome = try ChildProgram.run(helper.program, helper.arguments + ["scan", backend.name, path], timeLimit: deadline)
            // A plug-in that crashes or hangs as its parameters are swept for their display
            // texts (ZynReverb's VST2 throws at its last reverb type) is read again without.
            if backend.sweepsParameters, outcome.timedOut || outcome.status.isSignal {
                outcome = try ChildProgram.run(helper.program, helper.arguments + ["scan", backend.name, path],
                                               environment: [withoutSweeps: "1"], timeLimit: deadline)
            }
        } catch {
            return failed("cannot be read: \(helper.program) did not start (\(error))")
        }
        var plugins: [BinaryPlugin] = [], other: [Substring] = []
        for line in outcome.text.split(separator: "\n") {
            // A plug-in's own unfinished line may come first: the marker is looked for anywhere.
            if let start = line.firstRange(of: marker), let value = try? JSONParser.parse(Array(line[start.upperBound...].utf8)),
               let plugin = BinaryPlugin(json: value) {
                plugins.append(plugin)
            } else if !line.trimmingPrefix(" ").isEmpty {
                other.append(line)
            }
        }
        if outcome.timedOut { return failed("did not finish loading within \(deadline.components.seconds) s") }
        switch outcome.status {
        case .signaled(let signal):
            return failed("crashed while loading (\(String(cString: strsignal(signal))))")
        case .exited(let status) where status != 0:
            let said = other.last.map { ": " + TerminalText.printable(String($0), limit: 160) } ?? ""
            return failed("failed to load (exit status \(status))\(said)")
        case .exited:
            return plugins
        }
    }

    /// The child's side (`detent scan FORMAT PATH…`): each plug-in of each binary as a line
    /// on standard output. Exit status 0, or 2 when the format is not one of `backends`.
    package static func serve(format: String, paths: [String], backends: [any BinaryBackend]) -> Int32 {
        guard let backend = backends.first(where: { $0.name.lowercased() == format.lowercased() }) else {
            Console.error("scan: no format '\(TerminalText.printable(format, limit: 40))'")
            return 2
        }
        let sweeps = Environment.value(withoutSweeps) != "1"
        for path in paths {
            for plugin in sweeps ? backend.scan(path) : backend.scanWithoutSweeps(path) {
                Console.out(marker + plugin.json.compactText)
            }
        }
        ThisProcess.flushOutput()
        return 0
    }
}
