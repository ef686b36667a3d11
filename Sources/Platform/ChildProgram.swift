import CPlatform
import Glibc
import SystemPackage

/// Runs another program to its end and collects what it writes (the real-time audit's child,
/// the tools that build its runtime), started by ``Spawn``.
///
/// The program gets /dev/null as its input and one pipe for both its output streams, read as
/// the data arrives, so no amount of output can stall it. A time limit bounds a program that
/// hangs: past it, the program is killed and the outcome says so.
package enum ChildProgram {
    /// How a program ended.
    package enum Status: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)

        /// True when a signal ended it.
        package var isSignal: Bool { if case .signaled = self { true } else { false } }
    }

    /// A finished program: how it ended, what it wrote (the first `outputLimit` bytes), and
    /// whether it was killed at the time limit.
    package struct Outcome: Sendable {
        package let status: Status
        package let output: [UInt8]
        package let timedOut: Bool

        package var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// Runs `path` (no search in `PATH`) with `arguments` and this process's environment with
    /// `environment` added (replacing variables of the same names).
    ///
    /// - Throws: the system's reason when the program cannot be started (`ENOENT`, `EACCES`).
    package static func run(
        _ path: String, _ arguments: [String], environment: [String: String] = [:],
        timeLimit: Duration? = nil, outputLimit: Int = 16 << 20
    ) throws(SystemCallError) -> Outcome {
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe2") { detent_pipe_cloexec(&ends) }
        var reading = ends[0]
        defer { if reading >= 0 { close(reading) } }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let pid: pid_t
        do throws(SystemCallError) {
            pid = try Spawn.start(path, arguments, environment: environment, descriptors: [input, ends[1], ends[1]])
        } catch {
            close(ends[1])
            if input >= 0 { close(input) }
            throw error
        }
        close(ends[1])
        if input >= 0 { close(input) }

        let deadline = timeLimit.map { ContinuousClock.now + $0 }
        var output: [UInt8] = []
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while reading >= 0 {
            var wait: Int32 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                if left <= .zero {
                    kill(pid, SIGKILL)
                    timedOut = true
                    break
                }
                wait = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            }
            var ready = pollfd(fd: reading, events: Int16(POLLIN), revents: 0)
            guard (try? systemCall("poll", { poll(&ready, 1, wait) })) != nil else { break }
            if ready.revents == 0 { continue }
            let count = chunk.withUnsafeMutableBytes { buffer in
                (try? systemCall("read") { read(reading, buffer.baseAddress, buffer.count) }) ?? 0
            }
            if count <= 0 { break }
            output += chunk[..<min(count, max(0, outputLimit - output.count))]
        }
        close(reading)
        reading = -1

        return Outcome(status: Spawn.wait(pid), output: output, timedOut: timedOut)
    }
}
