import TestSupport
import AudioEngine
import Foundation
import Isolation
import Parameters
import Testing

extension JackTests {
    /// Sandboxes (`--isolate=together`, named groups): several isolated slots served by one
    /// process, woken once a period, that go down and come back together.
    @Suite struct SandboxTests {
        /// How many of this process's children serve sandbox `name`.
        static func sandboxProcesses(named name: String) -> Int { sandboxPIDs(named: name).count }

        /// This process's children serving sandbox `name`.
        static func sandboxPIDs(named name: String) -> [Int] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.filter { pid in
                guard Int(pid) != nil, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { return false }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                guard fields.count > 2, Int(fields[1]) == Int(getpid()) else { return false }
                let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
                return String(decoding: line, as: UTF8.self).contains("{\"sandbox\":\"\(name)\"")
            }.compactMap { Int($0) }
        }

        /// How many times process `pid`'s main thread has slept (its voluntary context switches).
        static func mainThreadSleeps(_ pid: Int) throws -> Int {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") })
            return try #require(Int(line.split(whereSeparator: \.isWhitespace).last ?? ""))
        }

        /// A sandbox's main thread reports its slots' output values, latency and messages: every
        /// 20 ms while the host reads output values (a panel, OSC, the browser), every 100 ms
        /// while it does not — a wake-up costs a sandbox playing nothing but its plug-ins more
        /// than the report.
        @Test func aSandboxReportsOftenOnlyWhileItsValuesAreRead() throws {
            let chain = try Processor.chain([
                ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("comp", LivePluginTests.processor("http://lsp-plug.in/plugins/lv2/compressor_stereo")),
            ])
            var launcher = try IsolatedSlotTests.launcher()
            launcher.plan = .together
            let f = try LivePluginTests.expectLiveEqualsOffline(chain.isolated(launcher), reference: chain)
            let pid = try #require(Self.sandboxPIDs(named: "together").first)
            // Nobody has read the values for over a second: the quick pace has lapsed.
            Thread.sleep(forTimeInterval: 1.2)
            var before = try Self.mainThreadSleeps(pid)
            Thread.sleep(forTimeInterval: 1)
            let idle = try Self.mainThreadSleeps(pid) - before
            #expect(idle <= 15, "woke \(idle) times in a second unwatched (every 100 ms: 10)")
            before = try Self.mainThreadSleeps(pid)
            let end = Date().addingTimeInterval(1)
            var outputs = 0
            while Date() < end {
                outputs = f.host.status().outputs.count
                Thread.sleep(forTimeInterval: 0.01)
            }
            let watched = try Self.mainThreadSleeps(pid) - before
            #expect(outputs == chain.outputs.count && outputs > 0)
            #expect(watched >= 35, "woke \(watched) times in a second watched (every 20 ms: 50)")
        }

        @Test func aTogetherSandboxPlaysAsInProcessFromOneProcess() throws {
            let chain = try Processor.chain([
                ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("lp", .lowpassGain),
                ("low", LivePluginTests.processor("http://plugin.org.uk/swh-plugins/buttlow_iir")),
                ("comp", LivePluginTests.processor("http://lsp-plug.in/plugins/lv2/compressor_stereo")),
            ])
            var launcher = try IsolatedSlotTests.launcher()
            launcher.plan = .together
            let f = try LivePluginTests.expectLiveEqualsOffline(chain.isolated(launcher), reference: chain)
            #expect(f.host.sandboxes == ["drive": "together", "low": "together", "comp": "together"])
            #expect(Self.sandboxProcesses(named: "together") == 1)
            #expect(f.host.status().outputs.map(\.id) == chain.outputs.map(\.id))
        }

        /// Three isolated slots in a row, one sandbox: each period is one request for the three
        /// (each output handed on inside the sandbox), and live equals in process to the sample.
        @Test func consecutiveSlotsOfASandboxPlayAsInProcessOnOneRequest() throws {
            let chain = try Processor.chain([
                ("drive", LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")),
                ("low", LivePluginTests.processor("http://plugin.org.uk/swh-plugins/buttlow_iir")),
                ("eq", LivePluginTests.processor("http://plugin.org.uk/swh-plugins/dj_eq")),
            ])
            var launcher = try IsolatedSlotTests.launcher()
            launcher.plan = .together
            let f = try LivePluginTests.expectLiveEqualsOffline(chain.isolated(launcher), reference: chain)
            #expect(Self.sandboxProcesses(named: "together") == 1)
            #expect(f.host.status().faults.isEmpty)
        }

        @Test func namedGroupsShareAProcessAndTheRestRunAlone() throws {
            let overdrive = try LivePluginTests.processor("http://drobilla.net/plugins/mda/Overdrive")
            let chain = try Processor.chain([("a", overdrive), ("b", overdrive), ("c", overdrive)])
            var launcher = try IsolatedSlotTests.launcher()
            launcher.plan = try SandboxPlan(parsing: "a+C")
            let f = try LivePluginTests.expectLiveEqualsOffline(chain.isolated(launcher), reference: chain)
            let sandboxes = f.host.sandboxes
            #expect(sandboxes["a"] == "a+c" && sandboxes["c"] == "a+c")
            #expect(sandboxes["b"] != nil && sandboxes["b"] != "a+c")
            #expect(Self.sandboxProcesses(named: "a+c") == 1)
        }
    }
}

/// A fault in a named group on a private jackd, with `detent live` as a program: the group's
/// slots go down together (the culprit named, the other said to have gone down with it), a
/// slot outside the group and the built-in play on, and `restart` of either brings both back.
@Suite(.serialized) struct SandboxFaultTests {
    @Test func aFaultInAGroupTakesItsSlotsDownAndRestartBringsThemBack() throws {
        let plugins = try FaultPlugin.built.get()
        let server = try LiveServerKind.jackd2.start()
        defer { server.stop() }
        var environment = server.clientEnvironment
        environment["LV2_PATH"] = plugins
        let detent = try LiveProgram(server.liveArguments + [
            "--headless", "--isolate=f1+f2", "--channels", "1", "--plugin", "lp=builtin", "--plugin", "f1=\(FaultPlugin.uri)",
            "--plugin", "f2=\(FaultPlugin.uri)", "--plugin", "f3=\(FaultPlugin.uri)",
        ], environment: environment)
        try detent.waitForMessage("'detent' on JACK server '\(server.serverName)'")
        _ = try detent.ask("set f1.fault 1")
        try detent.waitForMessage("f1 failed 3 times within a minute", timeout: 20)
        try detent.waitForMessage("f2 failed 3 times within a minute", timeout: 20)
        let down = try detent.ask("status")
        #expect(down.contains("slot f1 crashed (Segmentation fault), passing its input through"), "\(down)")
        #expect(down.contains("slot f2 went down with f1, which crashed (Segmentation fault), in sandbox f1+f2"), "\(down)")
        #expect(!down.contains("slot f3"), "\(down)")
        _ = try detent.ask("set f1.fault 0")
        #expect(try detent.ask("restart f2") == "restarted f2")
        let up = try detent.ask("status")
        #expect(!up.contains("slot f1") && !up.contains("slot f2"), "\(up)")
        #expect(detent.finish() == 0)
    }

    @Test func aGroupNamingNoSlotOfTheRigIsRefused() throws {
        let run = try DetentProcess.run(["live", "--headless", "--isolate=drive+nosuch", "--plugin", "drive=http://drobilla.net/plugins/mda/Overdrive",
                                         "--plugin", "lp=builtin"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr == ["detent: --isolate: no slot 'nosuch' in the rig (slots: drive, lp)"])
        let twice = try DetentProcess.run(["live", "--headless", "--isolate=drive,drive", "--plugin", "lp=builtin"])
        #expect(twice.status == 64 && twice.stderr == ["detent: --isolate: slot 'drive' is in two groups"], "\(twice.stderr)")
    }
}
