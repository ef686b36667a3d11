import Benchmark
import Parameters
import Presets
import TerminalPanel

/// The knob panel at 80 × 24 with no audio, drawn the way the terminal loop draws it:
/// render the panel into a cell buffer, diff against the last frame, produce the bytes. Each
/// iteration is one frame. The custom metric is the frame's size in bytes.
let width = 80
let height = 24
let bytesMetric = BenchmarkMetric.custom("bytes per frame", polarity: .prefersSmaller, useScalingFactor: false)

func makePanel() -> Panel {
    Panel(values: ParameterValues(table: LowpassGain.table), host: NoAudioHost(), store: PresetStore(userDirectory: "/nonexistent"),
          width: width, height: height)
}

/// Runs `frames` frames of `panel`, calling `change` before each, and records the bytes of the
/// last one.
func frames(_ benchmark: Benchmark, panel: Panel, full: Bool, change: (Int) -> Void) {
    var writer = FrameWriter(theme: Theme(color: true))
    _ = writer.frame(PanelRenderer.render(panel, at: 100).screen)
    var bytes = 0
    benchmark.startMeasurement()
    for i in benchmark.scaledIterations {
        change(i)
        if full { writer.invalidate() }
        let frame = writer.frame(PanelRenderer.render(panel, at: 100).screen)
        bytes = frame.count
        blackHole(frame)
    }
    benchmark.stopMeasurement()
    benchmark.measurement(bytesMetric, bytes)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal, bytesMetric], maxDuration: .seconds(3))

    // Everything: clear the screen and write every cell that is not blank.
    Benchmark("Panel full redraw, 80×24", configuration: configuration) { benchmark in
        frames(benchmark, panel: makePanel(), full: true) { _ in }
    }

    // One knob that moves nothing else: Gain, one step up or down (between one and two steps
    // above the default, so the header's modified marker stays as it is).
    Benchmark("Panel one-knob change (Gain step), 80×24", configuration: configuration) { benchmark in
        let panel = makePanel()
        panel.handle(.key(.backTab), at: 100)
        panel.handle(.key(.up), at: 100)
        frames(benchmark, panel: panel, full: false) { i in
            panel.handle(.key(i % 2 == 0 ? .up : .down), at: 100)
        }
    }

    // Cutoff, one step up or down: its knob and the whole response curve move.
    Benchmark("Panel Cutoff step (knob and response curve), 80×24", configuration: configuration) { benchmark in
        let panel = makePanel()
        panel.handle(.key(.up), at: 100)
        frames(benchmark, panel: panel, full: false) { i in
            panel.handle(.key(i % 2 == 0 ? .up : .down), at: 100)
        }
    }

    // Nothing changed: the panel is rendered and compared, and nothing is written.
    Benchmark("Panel unchanged frame, 80×24", configuration: configuration) { benchmark in
        frames(benchmark, panel: makePanel(), full: false) { _ in }
    }
}
