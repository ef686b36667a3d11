import Parameters

/// Table ids and units for plug-ins whose parameters have names but no symbols (LADSPA ports,
/// VST2, VST3 and CLAP parameters): one rule for every such format, so that a parameter
/// called `Cutoff Frequency (Hz)` is `cutoff_frequency` in Hz whichever format hosts it.
public enum ParameterNaming {
    /// An id from a name: the name without a trailing unit in brackets, in lower case, every
    /// run of other characters than ASCII letters and digits one `_`; `port_N` when nothing is
    /// left.
    public static func id(fromName name: String, index: UInt32) -> String {
        var text = name.trimmedWhitespace
        if let open = text.lastIndex(where: { $0 == "(" || $0 == "[" }), open != text.startIndex,
           text.hasSuffix(")") || text.hasSuffix("]") {
            text = String(text[..<open])
        }
        var id = "", gap = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                if gap && !id.isEmpty { id += "_" }
                id.unicodeScalars.append(scalar)
                gap = false
            } else {
                gap = true
            }
        }
        return id.isEmpty ? "port_\(index)" : id
    }

    /// `base`, or `base_2`, `base_3`… — the first not in `taken` (any case), which it joins.
    public static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var id = base, n = 2
        while taken.contains(id.lowercased()) { id = "\(base)_\(n)"; n += 1 }
        taken.insert(id.lowercased())
        return id
    }

    /// The unit a name gives in brackets at its end (`Delay (ms)`, `Gain [dB]`).
    public static func unit(inName name: String) -> ParameterUnit {
        let text = name.trimmedWhitespace
        guard let open = text.lastIndex(where: { $0 == "(" || $0 == "[" }), text.hasSuffix(")") || text.hasSuffix("]") else {
            return .none
        }
        return unit(String(text[text.index(after: open)...].dropLast()))
    }

    /// The unit a label names (`Hz`, `dB`, `ms`, `%`), or none.
    public static func unit(_ label: String) -> ParameterUnit {
        switch label.trimmedWhitespace.lowercased() {
        case "hz": .hertz
        case "db", "dbfs": .decibels
        case "ms": .milliseconds
        case "s", "sec", "seconds": .seconds
        case "%": .percent
        case "semitones", "semitone", "st": .semitones
        default: .none
        }
    }
}
