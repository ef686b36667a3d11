/// The parameter table as text, for `detent params` and help screens.
public enum ParameterTableText {
    /// An aligned plain-text table with a header row, one line per parameter.
    public static func table(ascii: Bool = false) -> String {
        let header = ["ID", "NAME", "UNIT", "RANGE", "DEFAULT", "TAPER", "SMOOTHING", "MIDI CC"]
        let rows = ParameterID.allCases.map { id -> [String] in
            let s = id.spec
            // The silent minimum is shown as its number too, so the range reads as a range.
            let low = s.minimumIsSilence ? s.unit.format(s.range.lowerBound, ascii: ascii) + " (silence)"
                : s.format(s.range.lowerBound, ascii: ascii)
            return [s.id, s.name, s.unit.symbol, "\(low) … \(s.format(s.range.upperBound, ascii: ascii))",
                    s.format(s.defaultValue, ascii: ascii), s.taper.rawValue, s.smoothing.rawValue, "\(s.midiController)"]
        }
        return TextTable.render([header] + rows)
    }

    /// One parameter as a JSON object on one line.
    public static func jsonLine(_ s: ParameterSpec) -> String {
        "{\"id\":\"\(s.id)\",\"name\":\"\(s.name)\",\"unit\":\"\(s.unit.symbol)\","
            + "\"min\":\(s.range.lowerBound),\"max\":\(s.range.upperBound),\"default\":\(s.defaultValue),"
            + "\"taper\":\"\(s.taper.rawValue)\",\"smoothing\":\"\(s.smoothing.rawValue)\","
            + "\"minimumIsSilence\":\(s.minimumIsSilence),\"midiController\":\(s.midiController)}"
    }
}
