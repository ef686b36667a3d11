import Parameters
import Presets
@testable import TerminalPanel

/// A processor of another shape than the built-in: forty parameters of every kind, as a large
/// plug-in has them — continuous knobs with units, switches, enumerations and integers — for
/// the pages, the wrapping and the kinds of control.
enum ManyKnobs {
    static let identifier = "urn:detent:test:forty"

    /// Every fourth row a switch (`sw0`, `sw4`, …), every fourth from 1 an enumeration (`mode1`,
    /// …), from 2 an integer (`voices2`, …), from 3 a continuous level in dB (`level3`, …).
    static let table: ParameterTable = try! ParameterTable((0..<40).map { i in
        switch i % 4 {
        case 0:
            return ParameterSpec(id: "sw\(i)", name: "Switch \(i)", unit: .none, range: 0...1, taper: .linear,
                                 defaultValue: 0, smoothing: .none, kind: .toggle)
        case 1:
            return ParameterSpec(id: "mode\(i)", name: "Mode \(i)", unit: .none, range: 0...3, taper: .linear,
                                 defaultValue: 0, smoothing: .none,
                                 kind: .enumeration([ScalePoint(0, "Lowpass"), ScalePoint(1, "Bandpass"),
                                                     ScalePoint(2, "Highpass"), ScalePoint(3, "Notch")]))
        case 2:
            return ParameterSpec(id: "voices\(i)", name: "Voices \(i)", unit: .none, range: 1...64, taper: .linear,
                                 defaultValue: 4, smoothing: .none, kind: .integer)
        default:
            return ParameterSpec(id: "level\(i)", name: "Level \(i)", unit: .decibels, range: -24...24, taper: .linear,
                                 defaultValue: 0, smoothing: .linear)
        }
    })

    static let scope = PresetScope(processor: identifier, table: table)

    /// A panel over the table's defaults, titled as a plug-in's would be.
    static func panel(width: Int = 80, height: Int = 24, ascii: Bool = false, host: (any PanelHost)? = nil,
                      store: PresetStore? = nil) -> (Panel, NoAudioHost) {
        let noAudio = NoAudioHost()
        let panel = Panel(values: ParameterValues(table: table), host: host ?? noAudio,
                          store: store ?? PresetStore(userDirectory: "/nonexistent/detent-panel-tests", scope: scope),
                          title: "Forty Knobs", ascii: ascii, width: width, height: height)
        return (panel, noAudio)
    }
}

/// A live host as the panel sees it, with read-only outputs (a compressor's meters) and no
/// audio: what the panel draws of outputs, without JACK.
final class OutputsHost: PanelHost {
    var values: [ParameterIndex: Double] = [:]
    var shown: [PanelOutput]

    init(outputs: [PanelOutput]) { shown = outputs }

    func set(_ values: [ParameterIndex: Double]) { self.values.merge(values) { $1 } }
    func targets() -> [ParameterIndex: Double] { values }
    func outputs() -> [PanelOutput] { shown }
    var refreshInterval: Double? { 1.0 / 30 }
}
