import Parameters

/// Derives a safe file name from a preset name, reversibly.
///
/// Letters, digits, spaces and a few harmless punctuation marks are kept, so `Dark` is stored
/// as `Dark.json` and `Café Lowpass` as `Café Lowpass.json`. Every other character is written
/// as `%` and its UTF-8 bytes in hex, like a URL: `/` becomes `%2F`, `.` becomes `%2E`, `%`
/// itself `%25`. A derived file name therefore never holds a path separator, never starts
/// with a dot (no hidden files, no `..`) and never holds a control character; and since the
/// encoding is reversible, two different names never share a file (names that differ only
/// in case are caught by the store, ``PresetName/key(_:)``).
///
/// ```swift
/// try PresetFileName.fileName(for: "Lo/Fi")      // "Lo%2FFi.json"
/// PresetFileName.name(fromFileName: "Lo%2FFi.json")  // "Lo/Fi"
/// ```
public enum PresetFileName {
    /// The extension of preset files.
    public static let fileExtension = ".json"

    /// The longest file name most file systems accept, in bytes.
    static let maximumBytes = 255

    /// ASCII punctuation that is safe in a file name on every common file system and shell-quoting
    /// friendly enough; everything not listed here or alphanumeric is encoded.
    private static let keptPunctuation: Set<Unicode.Scalar> = [" ", "-", "_", "(", ")", "+", ",", "'", "&", "!", "=", "@"]

    /// The file name (`Dark.json`) under which the preset `name` is stored.
    ///
    /// - Throws: ``PresetError/Problem/invalidName(name:reason:)`` when `name` breaks
    ///   ``PresetName``'s rules or its file name would be too long.
    public static func fileName(for name: String) throws(PresetError) -> String {
        try PresetName.validate(name)
        var stem = ""
        for scalar in name.unicodeScalars {
            if isKept(scalar) {
                stem.unicodeScalars.append(scalar)
            } else {
                for byte in String(scalar).utf8 { stem += "%" + hex(byte) }
            }
        }
        let fileName = stem + fileExtension
        guard fileName.utf8.count <= maximumBytes else {
            throw PresetError(.invalidName(name: name, reason: "its file name would be longer than \(maximumBytes) bytes"))
        }
        return fileName
    }

    /// The preset name a file name stands for: the encoding undone, or the bare stem when the
    /// file was named by hand (`My.Preset.json` → `My.Preset`). Used for files that cannot be
    /// read, whose own name field is unknown.
    public static func name(fromFileName fileName: String) -> String {
        let stem = fileName.hasSuffix(fileExtension) ? String(fileName.dropLast(fileExtension.count)) : fileName
        var bytes: [UInt8] = []
        var utf8 = Array(stem.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2, utf8.prefix(2).allSatisfy(isHexDigit),
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? stem
    }

    private static func isKept(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || keptPunctuation.contains(scalar)
        }
        // Letters and digits of any script; look-alike separators (U+2215 ∕) are neither.
        let properties = scalar.properties
        return properties.isAlphabetic || properties.numericType != nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
