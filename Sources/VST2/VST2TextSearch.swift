/// A value typed in a VST2 plug-in's own words (`12 ms`) for a plug-in that does not read text
/// itself (`effString2Parameter` unanswered, as by DPF's builds): the 0…1 value whose display
/// shows that number, found by halving. VST2 says nothing of a parameter's curve but what it
/// shows, so what it shows is searched: the display must rise (or fall) with the value, as a
/// knob's does, and the number typed must be one it shows, within the display's rounding.
enum VST2TextSearch {
    /// The 0…1 value for `text`, given what the plug-in shows (display and label) at a 0…1
    /// value; nil when `text` is no number in the plug-in's label (or none), or no value shows it.
    static func normalized(for text: String, shown: (Double) -> (display: String, label: String)?) -> Double? {
        guard let typed = VST2Curve.shown(text) else { return nil }
        func number(_ n: Double) -> VST2Curve.Shown? {
            guard let (display, label) = shown(n), let number = VST2Curve.shown(display) else { return nil }
            let unit = number.suffix.isEmpty ? label : number.suffix
            guard typed.suffix.isEmpty || typed.suffix.lowercased() == unit.lowercased() else { return nil }
            return number
        }
        // Which way the display runs: its first and last numbers (an end may be a word, `-inf`).
        let probes = [0, 0.25, 0.5, 0.75, 1].compactMap { n in number(n).map { (n, $0.value) } }
        guard let first = probes.first, let last = probes.last, first.1 != last.1 else { return nil }
        let rising = last.1 > first.1
        // Below `limit` at `n`: a word at the low end counts as below every number, at the high end above.
        func below(_ n: Double, _ limit: (Double) -> Bool) -> Bool {
            guard let shown = number(n) else { return n < 0.5 }
            return limit(rising ? shown.value : -shown.value)
        }
        // The first value that shows at least the number typed, and the one before it: of the
        // two numbers they show, the nearer to the one typed is taken (a display of 3 digits
        // shows 125 for 125.4), at the middle of the values that show it.
        let start = firstNot { below($0) { $0 < (rising ? typed.value : -typed.value) } }
        let nearest = [start, max(0, start - 0x1p-30)].compactMap(number).min { abs($0.value - typed.value) < abs($1.value - typed.value) }
        guard let nearest, abs(nearest.value - typed.value) <= nearest.resolution + typed.resolution else { return nil }
        let shownValue = rising ? nearest.value : -nearest.value
        let from = firstNot { below($0) { $0 < shownValue } }, to = firstNot { below($0) { $0 <= shownValue } }
        return [(from + to) / 2, from].first { number($0)?.value == nearest.value }
    }

    /// Whether a plug-in's display (and label) at the value it read `text` as shows `text`:
    /// the same words, or the same number within both's rounding, in the same unit or none.
    /// A plug-in may answer `effString2Parameter` for any text (JUCE's builds read a word they
    /// do not know as 0), so its answer is believed only when it shows what was typed. A
    /// plug-in that shows nothing is believed.
    static func shows(_ text: String, display: String, label: String) -> Bool {
        let typed = text.trimmedWhitespace.lowercased(), shown = display.trimmedWhitespace.lowercased()
        if shown.isEmpty || typed == shown || typed == (shown + " " + label.lowercased()).trimmedWhitespace {
            return true
        }
        guard let number = VST2Curve.shown(text), let showing = VST2Curve.shown(display) else { return false }
        let unit = showing.suffix.isEmpty ? label : showing.suffix
        guard number.suffix.isEmpty || number.suffix.lowercased() == unit.lowercased() else { return false }
        return abs(showing.value - number.value) <= showing.resolution + number.resolution
    }

    /// The first 0…1 value at which `below` is false, to within 2⁻³⁰, for a `below` true up
    /// to a point and false after it.
    private static func firstNot(_ below: (Double) -> Bool) -> Double {
        var low = 0.0, high = 1.0
        guard below(low) else { return low }
        for _ in 0..<30 {
            let middle = (low + high) / 2
            if below(middle) { low = middle } else { high = middle }
        }
        return high
    }
}
