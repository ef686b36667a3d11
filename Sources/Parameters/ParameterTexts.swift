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
    /// The same words asked of another process, for row `row` of the processor found as
    /// `reference` (its file, or its identifier) whose identifier is `identifier`, run in a
    /// process of its own (an isolated slot): its plug-in is then never loaded here. Nil:
    /// the row has no words there.
    func elsewhere(row: Int, reference: String, identifier: String) -> (any ParameterTexts)?
}

extension ParameterTexts {
    public func elsewhere(row: Int, reference: String, identifier: String) -> (any ParameterTexts)? { nil }
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
    /// The table with the words of row `i` now `texts[i]` (nil: none), for rows that have
    /// words now; the rest unchanged. A plug-in run elsewhere has its words asked there
    /// (``ParameterTexts/elsewhere(row:reference:identifier:)``).
    public func replacingOwnTexts(_ texts: [(any ParameterTexts)?]) -> ParameterTable {
        var changed = specs, moved = false
        for (i, words) in texts.enumerated() where changed[i].ownTexts != nil {
            changed[i] = words.map { changed[i].withOwnTexts($0) } ?? changed[i].withoutOwnTexts
            moved = true
        }
        guard moved else { return self }
        // The ids are this table's, unique already.
        return try! ParameterTable(changed)
    }
}
