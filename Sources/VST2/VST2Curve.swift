import BinaryPlugins
import Parameters

/// What a VST2 parameter's 0…1 values stand for. VST2 gives a parameter no range and no
/// default of its own, only a 0…1 value and the text the plug-in shows for its value now
/// (`effGetParamDisplay`, in the unit of `effGetParamLabel`). So the scan sets each parameter
/// to values across 0…1 and reads what it shows: where every text is a number that follows a
/// straight line or equal ratios, the parameter's row takes the plug-in's own values (ZamComp's
/// attack 0.1 … 100 ms, as its LV2, VST3 and CLAP builds have it), and the bridge maps a row's
/// value back to 0…1 (`detent_vst2_normalized`). A stepped parameter whose texts are names
/// becomes an enumeration. Anything else stays 0…1.
enum VST2Curve {
    /// A number as a plug-in shows it: its value, how far the true value may be from it (half
    /// the weight of its last digit), and the text after it (a unit).
    struct Shown: Equatable {
        var value: Double
        var resolution: Double
        var suffix: String
    }

    /// The number `text` begins with, or nil when it does not begin with one (a name, `-inf`).
    static func shown(_ text: String) -> Shown? {
        var bytes = Array(text.trimmedWhitespace.utf8)
        // U+2212, the minus sign some plug-ins print.
        if bytes.starts(with: [0xE2, 0x88, 0x92]) { bytes.replaceSubrange(0..<3, with: [UInt8(ascii: "-")]) }
        var i = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") { i += 1 }
        let digitsStart = i
        var decimals = -1
        while i < bytes.count {
            let b = bytes[i]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") {
                if decimals >= 0 { decimals += 1 }
            } else if b == UInt8(ascii: "."), decimals < 0 {
                decimals = 0
            } else {
                break
            }
            i += 1
        }
        guard i > digitsStart, bytes[digitsStart..<i].contains(where: { $0 != UInt8(ascii: ".") }) else { return nil }
        var end = i
        var exponent = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            var j = i + 1
            if j < bytes.count, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") { j += 1 }
            let first = j
            while j < bytes.count, bytes[j] >= UInt8(ascii: "0"), bytes[j] <= UInt8(ascii: "9") { j += 1 }
            if j > first, let e = Int(String(decoding: bytes[(i + 1)..<j], as: UTF8.self)) {
                exponent = e
                end = j
            }
        }
        guard let value = DecimalText.number(String(decoding: bytes[0..<end], as: UTF8.self)) else { return nil }
        var resolution = 0.5
        for _ in 0..<max(0, decimals) { resolution /= 10 }
        for _ in 0..<abs(exponent) { resolution = exponent > 0 ? resolution * 10 : resolution / 10 }
        return Shown(value: value, resolution: resolution, suffix: String(decoding: bytes[end...], as: UTF8.self).trimmedWhitespace)
    }

    /// The range and taper through `samples` (0…1 values and what the plug-in showed for each,
    /// 0 and 1 among them): the numbers shown at 0 and 1, in a straight line or by equal
    /// ratios, within every text's rounding. Nil when a text is no number, the units differ,
    /// the numbers fall as the value rises, or neither curve passes.
    static func fit(_ samples: [(normalized: Double, text: String)]) -> (range: ClosedRange<Double>, taper: Taper, unit: String)? {
        var points: [(n: Double, shown: Shown)] = []
        for sample in samples {
            guard let shown = shown(sample.text) else { return nil }
            points.append((sample.normalized, shown))
        }
        guard let low = points.first(where: { $0.n == 0 })?.shown, let high = points.first(where: { $0.n == 1 })?.shown,
              low.value < high.value, Set(points.map(\.shown.suffix)).count == 1 else { return nil }
        let range = low.value...high.value
        // What a float plug-in's own arithmetic adds to the texts' rounding.
        let slack = 1e-6 * max(abs(low.value), abs(high.value))
        for taper in [Taper.linear, .logarithmic] where taper == .linear || low.value > 0 {
            let passes = points.allSatisfy { p in
                let expected = taper.value(atNormalized: p.n, in: range)
                let ends = taper == .linear ? low.resolution + high.resolution
                    : expected * (low.resolution / low.value + high.resolution / high.value)
                return abs(expected - p.shown.value) <= p.shown.resolution + ends + slack
            }
            if passes { return (range, taper, low.suffix) }
        }
        return nil
    }
}
