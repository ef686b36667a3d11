import CRealtime
import AudioEngine
import Foundation
import Parameters
import LV2
import Testing
import TestSupport

/// The live worker thread sleeps until a plug-in queues work: an idle plug-in with a worker
/// costs no CPU and no wake-ups, while work it asks for is still done at once.
///
/// The plug-in is LSP's Artistic Delay (lsp-plugins-lv2): switching a delay line on makes its
/// `run` hand the line's allocation to the worker (`schedule_work`), and its `memuse` meter
/// shows the memory once the worker has allocated it; switching the line off hands the
/// freeing over the same way. The test thread stands in for the audio thread, rendering a
/// 256-frame block every 5 ms.
/// Serialized: each test tells its engine's thread from the others by the work it asks for.
@Suite(.serialized) struct WorkerWakeTests {
    static let uri = "http://lsp-plug.in/plugins/lv2/art_delay_mono"
    static let block = 256

    /// A live (real-time) engine for the plug-in with delay line 0 on and its maximum at
    /// `selector`, rendered until the worker has allocated the line; and the task id of its
    /// worker thread (`lv2-worker`): of the worker threads that appeared while the engine was
    /// prepared (other suites may start their own meanwhile), the one that woke for the work.
    static func liveEngine(selector: Double = 3) throws -> (Engine, worker: String) {
        let before = workerThreads()
        let engine = Engine(processor: try Processor.plugin(PluginSearch.find(uri)))
        try engine.prepare(sampleRate: 48_000, maxFrames: block, channels: 1, realtime: true)
        // The thread names itself as it starts.
        try waitUntil("the worker thread has its name") { !workerThreads().subtracting(before).isEmpty }
        let candidates = workerThreads().subtracting(before)
        let asleep = Dictionary(uniqueKeysWithValues: try candidates.map { ($0, try ThreadUse(task: $0).sleeps) })
        engine.jump(try engine.table.index(of: "dmax"), to: selector)
        engine.jump(try engine.table.index(of: "on0"), to: 1)
        try #require(render(engine, for: 2) { memoryInUse(engine) > 0 }, "the worker allocated the delay line")
        func woke() -> [String] { candidates.filter { ((try? ThreadUse(task: $0).sleeps) ?? 0) > asleep[$0]! } }
        try waitUntil("the worker went back to sleep") { !woke().isEmpty }
        let worker = woke()
        try #require(worker.count == 1, "one worker thread woke for the work")
        return (engine, worker[0])
    }

    /// The ids of this process's threads called `lv2-worker`.
    static func workerThreads() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.filter {
            (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) == "lv2-worker\n"
        })
    }

    /// What the kernel counts for one thread: CPU time in clock ticks (`stat`'s utime + stime,
    /// 10 ms each), CPU time in nanoseconds (`schedstat`), and how often it went to sleep
    /// (voluntary context switches: one per wait that blocked).
    struct ThreadUse: Equatable {
        var ticks = 0, nanoseconds = 0, sleeps = 0

        init(task: String) throws {
            let stat = try String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8)
            // The fields after the name (which may hold spaces): state is the 3rd of the
            // line, utime and stime the 14th and 15th.
            let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
            ticks = Int(fields[11])! + Int(fields[12])!
            let schedstat = try String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8)
            nanoseconds = Int(schedstat.split(separator: " ")[0])!
            let status = try String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }!
            sleeps = Int(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces))!
        }

        static func - (a: ThreadUse, b: ThreadUse) -> ThreadUse {
            var d = a
            d.ticks -= b.ticks
            d.nanoseconds -= b.nanoseconds
            d.sleeps -= b.sleeps
            return d
        }
    }

    /// Renders silence in blocks, one every 5 ms on the monotonic clock (a block's length at
    /// 48 kHz is 5.3 ms), until `done` holds after a block or `seconds` have passed; returns
    /// whether `done` held. `realtime` marks each block a real-time region for
    /// RealtimeSanitizer (no effect in a build without it).
    @discardableResult
    static func render(_ engine: Engine, for seconds: Double, realtime: Bool = false,
                       until done: () -> Bool = { false }) -> Bool {
        let input = [Float](repeating: 0, count: block)
        var output = [Float](repeating: 0, count: block)
        return onTicks(everyNanoseconds: 5_000_000, count: Int(seconds * 200)) { _ in
            if realtime { detent_rtsan_enter() }
            engine.process(interleaved: input, output: &output, frames: block)
            if realtime { detent_rtsan_exit() }
            return done()
        }
    }

    static func memoryInUse(_ engine: Engine) -> Double {
        engine.kernelReports!.outputValues.first { $0.id == "memuse" }!.value
    }

    @Test("an idle worker thread sleeps through a second of audio, and wakes for work the plug-in queues")
    func idleWorkerSleepsAndWakesForWork() throws {
        let (engine, worker) = try Self.liveEngine(selector: 5)
        // A few blocks: the plug-in takes the line it asked for.
        Self.render(engine, for: 0.1)
        let old = Self.memoryInUse(engine)

        // An idle second: blocks run, nothing is queued, the worker does not run at all.
        // (Polling every millisecond, it went to sleep about 900 times and used 10–25 ms.)
        let start = try ThreadUse(task: worker)
        Self.render(engine, for: 1)
        let idle = try ThreadUse(task: worker) - start
        #expect(idle.sleeps == 0, "the worker did not wake while idle")
        #expect(idle.ticks == 0)
        #expect(idle.nanoseconds < 100_000, "the worker used \(idle.nanoseconds) ns of CPU while idle")

        // The plug-in asks for work: a shorter line is allocated, the plug-in takes it and the
        // longer one is freed (the meter falls below what it was), well within a second.
        engine.jump(try engine.table.index(of: "dmax"), to: 4)
        let asked = try ThreadUse(task: worker)
        #expect(Self.render(engine, for: 1) { (0..<old).contains(Self.memoryInUse(engine)) && Self.memoryInUse(engine) > 0 },
                "the shorter line replaced the longer one (\(old) → \(Self.memoryInUse(engine)) MiB)")
        try waitUntil("the worker went back to sleep") { ((try? ThreadUse(task: worker).sleeps) ?? 0) > asked.sleeps }

        // And sleeps again once the work is done.
        Self.render(engine, for: 0.1)
        let settled = try ThreadUse(task: worker)
        Self.render(engine, for: 0.5)
        #expect((try ThreadUse(task: worker) - settled).sleeps == 0, "the worker did not wake again")
    }

    @Test("releasing the engine stops its sleeping worker thread at once")
    func stopEndsTheSleepingThread() throws {
        var (engine, worker): (Engine?, String) = try Self.liveEngine()
        Self.render(engine!, for: 0.05)
        let took = ContinuousClock().measure { engine = nil }
        #expect(!FileManager.default.fileExists(atPath: "/proc/self/task/\(worker)"), "the thread has ended")
        #expect(took < .milliseconds(500), "stopping took \(took)")
    }

    /// The wake-up under RealtimeSanitizer (`.ci/run` runs suites of this name in a build with
    /// it linked): the audio thread queues work while the worker sleeps, so each request's
    /// `sem_post` makes its `FUTEX_WAKE` call inside the real-time region; the sanitizer would
    /// stop the run at a lock, an allocation or a blocking call.
    @Suite struct RealtimeCallbackTests {
        @Test("queuing work wakes the sleeping worker from inside a real-time region")
        func wakingTheWorkerIsRealtimeSafe() throws {
            let (engine, worker) = try WorkerWakeTests.liveEngine(selector: 8)
            let longest = try engine.table.index(of: "dmax")
            func memory() -> Double { WorkerWakeTests.memoryInUse(engine) }
            WorkerWakeTests.render(engine, for: 0.05, realtime: true)
            let start = try ThreadUse(task: worker)
            // Each shorter maximum is two requests: the new line is allocated (the meter shows
            // both lines, more than before), and once the plug-in has taken it, the old one is
            // freed (the meter falls below what it was). Switching on0 off is left out:
            // LSP 1.2.5 never takes a line that becomes ready after the switch went off, and
            // asks for nothing more.
            for selector in (3...7).reversed() {
                let old = memory()
                engine.jump(longest, to: Double(selector))
                let replaced = WorkerWakeTests.render(engine, for: 2, realtime: true) { (0..<old).contains(memory()) && memory() > 0 }
                #expect(replaced, "selector \(selector): the shorter line replaced the old one (\(old) → \(memory()) MiB)")
            }
            #expect(try ThreadUse(task: worker).sleeps - start.sleeps >= 5, "the worker slept between the requests")
        }
    }
}
