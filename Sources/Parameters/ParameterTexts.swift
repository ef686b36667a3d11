/// A plug-in's own words for one row's values: the text it shows for a value and the value it
/// reads from a text, where its format has them (VST2's display and `effString2Parameter`,
/// VST3's `getParamStringByValue` and `getParamValueByString`, CLAP's `value_to_text` and
/// `text_to_value`).
///
/// Detent formats a row itself wherever it knows the row's unit. A plug-in whose values it
/// knows only as 0…1 (a VST2 knob whose display follows a curve of the plug-in's own) would
/// show `0.35` where the plug-in means `12.3 ms`; such a row shows the plug-in's text instead
/// (``showsOwnText``). And a value typed in the plug-in's words (`4:1`, `12 ms`) that
/// Detent's own parser does not take is offered to the plug-in before it is refused.
///
/// Called from any thread but the audio thread; an implementation serialises its calls.
public protocol ParameterTexts: AnyObject, Sendable {
    /// True when the row's values are shown in the plug-in's words rather than Detent's.
    var showsOwnText: Bool { get }
    /// The plug-in's text for `value` (in the row's unit), or nil when it gives none.
    func text(for value: Double) -> String?
    /// The value (in the row's unit) the plug-in reads from `text`, or nil when it reads none.
    func value(for text: String) -> Double?
}

/// A row's ``ParameterTexts``, held so that it makes no difference to a row's equality: two
/// rows that say the same about a parameter are the same row, whoever is asked for its words.
public struct OwnTexts: Sendable, Hashable {
    public let texts: any ParameterTexts

    public init(_ texts: any ParameterTexts) { self.texts = texts }

    public static func == (a: OwnTexts, b: OwnTexts) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
}

extension OwnTexts {
    /// A plug-in's text for a terminal that shows ASCII alone (`--ascii`): its few usual
    /// symbols spelled out, any other character beyond ASCII a `?`.
    public static func ascii(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
            case "µ", "μ": out += "u"
            case "°": out += " deg"
            case "−", "–": out += "-"
            case "∞": out += "inf"
            case "\u{00A0}": out += " "
            default: out += "?"
            }
        }
        return out
    }
}

extension ParameterTable {
    /// True when a row has a plug-in's own words.
    public var hasOwnTexts: Bool { specs.contains { $0.ownTexts != nil } }

    /// The table without any plug-in's own words (``ParameterSpec/withoutOwnTexts``).
    public var withoutOwnTexts: ParameterTable { withoutOwnTexts(in: specs.indices) }

    /// The table without the plug-in's own words of the rows at `rows` (a chain's slot run
    /// elsewhere).
    public func withoutOwnTexts<Rows: Sequence<Int>>(in rows: Rows) -> ParameterTable {
        var changed = specs, stripped = false
        for row in rows where changed[row].ownTexts != nil {
            changed[row] = changed[row].withoutOwnTexts
            stripped = true
        }
        guard stripped else { return self }
        // The ids are this table's, unique already.
        return try! ParameterTable(changed)
    }
}
