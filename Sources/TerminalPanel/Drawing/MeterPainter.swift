import Glibc
import Parameters
import AudioEngine

/// Output meters, one row per channel: `Out L ⣿⣿⣿⣿⣿⣀⣀⣀⣀ −12.0 dB`, the bar at the RMS level
/// with the peak marked, on a −60 … 0 dBFS scale; the part above the warning level stands out.
public enum MeterPainter {
    public static let floor = -60.0
    public static let warning = -6.0

    /// dBFS of a linear amplitude (the floor for silence).
    public static func decibels(_ amplitude: Double) -> Double {
        amplitude > 0 ? max(20 * log10(amplitude), floor) : floor
    }

    public static func draw(_ meters: [MeterReading], ascii: Bool, into screen: inout ScreenBuffer, frame: PanelLayout.Frame) {
        // `Out L` and a blank column before the bar.
        let labelWidth = 5 + (meters.map { DisplayWidth.of($0.label) }.max() ?? 0)
        let textWidth = 10
        let barWidth = frame.width - labelWidth - textWidth - 1
        guard barWidth > 2 else { return }
        for (i, meter) in meters.enumerated() where i < frame.height {
            let y = frame.y + i
            screen.put("Out " + meter.label, x: frame.x, y: y, role: .dim)
            let rms = fraction(decibels(meter.rms)), peak = fraction(decibels(meter.peak))
            let filled = Int((rms * Double(barWidth)).rounded())
            let peakCell = min(Int((peak * Double(barWidth - 1)).rounded()), barWidth - 1)
            for c in 0..<barWidth {
                let hot = Double(c) / Double(barWidth) >= fraction(warning)
                let lit = c < filled
                let character: Character = ascii ? (lit ? "#" : (c == peakCell && peak > 0 ? "|" : "-")) : (lit ? "⣿" : (c == peakCell && peak > 0 ? "⡇" : "⣀"))
                screen[frame.x + labelWidth + c, y] = Cell(character, lit || c == peakCell ? (hot ? .meterHot : .meter) : .track)
            }
            let level = meter.peak > 0 ? DecimalText.fixed(decibels(meter.peak), decimals: 1, ascii: ascii) + " dB" : (ascii ? "-inf dB" : "−∞ dB")
            screen.put(level, x: frame.x + labelWidth + barWidth + 1, y: y, role: .value, limit: textWidth)
        }
    }

    /// Where a level falls on the meter (0 at the floor, 1 at full scale).
    static func fraction(_ decibels: Double) -> Double {
        min(max((decibels - floor) / -floor, 0), 1)
    }
}
