import Parameters

/// The processor's read-only outputs (``PanelOutput``), in a section of their own under the
/// knobs: `Gain reduct… ⣿⣿⣿⣀⣀⣀⣀⣀⣀⣀ −3.50 dB`, several to a row. An output with a known range
/// gets a small meter; one without shows its value only. Nothing here can be focused or turned.
public enum OutputPainter {
    /// Columns of the label, the meter and the value; the rest of ``PanelLayout/outputWidth``
    /// separates one output from the next.
    public static let labelWidth = 14, barWidth = 10, valueWidth = 9

    /// Draws `outputs`, `columns` to a row, into `frame` (as many rows as fit).
    public static func draw(_ outputs: [PanelOutput], columns: Int, ascii: Bool, into screen: inout ScreenBuffer,
                            frame: PanelLayout.Frame) {
        for (i, output) in outputs.enumerated() {
            let row = i / max(columns, 1), column = i % max(columns, 1)
            guard row < frame.height else { return }
            let x = frame.x + column * PanelLayout.outputWidth, y = frame.y + row
            screen.put(label(output.label, ascii: ascii), x: x, y: y, role: .dim, limit: labelWidth)
            let barX = x + labelWidth + 1
            if let text = output.text {
                screen.put(text, x: barX, y: y, role: .value, limit: barWidth + 1 + valueWidth)
                continue
            }
            if let fraction = output.fraction {
                let lit = Int((fraction * Double(barWidth)).rounded())
                for c in 0..<barWidth {
                    let on = c < lit
                    screen[barX + c, y] = Cell(ascii ? (on ? "#" : "-") : (on ? "⣿" : "⣀"), on ? .meter : .track)
                }
            }
            screen.put(valueText(output, ascii: ascii), x: barX + barWidth + 1, y: y, role: .value, limit: valueWidth)
        }
    }

    /// The label, cut to fit with an ellipsis.
    static func label(_ text: String, ascii: Bool) -> String {
        guard DisplayWidth.of(text) > labelWidth else { return text }
        var cut = ""
        let room = labelWidth - (ascii ? 3 : 1)
        for c in text {
            if DisplayWidth.of(cut + String(c)) > room { break }
            cut.append(c)
        }
        return cut + (ascii ? "..." : "…")
    }

    /// The value with about three significant digits, and its unit: `−3.50 dB`, `12.0 ms`, `250`.
    public static func valueText(_ output: PanelOutput, ascii: Bool) -> String {
        let magnitude = abs(output.value)
        let decimals = magnitude >= 100 || !magnitude.isFinite ? 0 : (magnitude >= 10 ? 1 : 2)
        let number = DecimalText.fixed(output.value, decimals: decimals, ascii: ascii)
        return output.unit.isEmpty ? number : number + " " + output.unit
    }
}
