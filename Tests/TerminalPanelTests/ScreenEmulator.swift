#if canImport(Glibc)
import Glibc
#endif

/// The C.UTF-8 locale (built into glibc), for `wcwidth`.
nonisolated(unsafe) private let utf8Locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

/// The C library's `wcwidth`, which the Glibc module leaves out (its header hides it behind
/// `_XOPEN_SOURCE`).
private let wcwidth: @convention(c) (wchar_t) -> Int32 = {
    let symbol = dlsym(dlopen(nil, RTLD_NOW), "wcwidth")
    return unsafeBitCast(symbol!, to: (@convention(c) (wchar_t) -> Int32).self)
}()

/// A small terminal emulator for tests: it applies the escape sequences the panel writes
/// (cursor position and moves, carriage return, clear, SGR, private modes) to a grid of characters and
/// remembers which private modes are on. It lets a test check what a person would see from
/// the bytes alone, and whether quitting switched every mode off again.
///
/// It is written from the ECMA-48 / xterm rules for those few sequences, independently of the
/// panel's writer, so a writer bug shows up as a screen that differs from the frame drawn.
///
/// Like xterm and VTE it measures each code point on its own, with the C library's `wcwidth`
/// (not the panel's ``DisplayWidth``): a wide one fills its column and the next, a zero-width
/// one joins the glyph written last, and writing over half of a wide glyph blanks the other.
struct ScreenEmulator {
    private(set) var width: Int
    private(set) var height: Int
    /// The glyph in each column; nil in the right half of a wide glyph.
    private(set) var rows: [[String?]]
    /// The SGR parameters in force when each cell was last written.
    private var sgr: [[String]]
    private(set) var cursorX = 0
    private(set) var cursorY = 0
    /// Private modes set with `CSI ? n h` and not reset since (1049, 25 hidden is tracked as
    /// `cursorHidden`).
    private(set) var modes: Set<Int> = []
    private(set) var cursorHidden = false
    /// The SGR parameters in force.
    private(set) var lastSGR = ""
    private var pending: [UInt8] = []
    /// The primary screen, kept while the alternate screen is shown.
    private var savedPrimary: [[String?]]?
    /// Where the last glyph went: a zero-width code point joins it.
    private var lastGlyph: (x: Int, y: Int)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        rows = Self.blankRows(width: width, height: height)
        sgr = Array(repeating: Array(repeating: "", count: width), count: height)
    }

    private static func blankRows(width: Int, height: Int) -> [[String?]] {
        Array(repeating: Array(repeating: " ", count: width), count: height)
    }

    /// The SGR parameters cell (`x`, `y`) was written with.
    func attributes(x: Int, y: Int) -> String { sgr[y][x] }

    var alternateScreen: Bool { modes.contains(1049) }
    var mouseReporting: Bool { !modes.isDisjoint(with: [1000, 1002, 1003, 1006, 1016]) }

    /// The screen as text, trailing spaces removed (a wide glyph once, for its two columns).
    var text: String {
        (0..<height).map { y in
            var line = self.line(y)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    func contains(_ needle: String) -> Bool { (0..<height).contains { line($0).contains(needle) } }

    func line(_ y: Int) -> String { rows[y].compactMap { $0 }.joined() }

    /// The glyph in column `x` of row `y`; nil in the right half of a wide one.
    func glyph(x: Int, y: Int) -> String? { rows[y][x] }

    /// The column where `needle` starts on row `y`, counting columns as the terminal shows them.
    func column(of needle: String, row y: Int) -> Int? {
        let glyphs = rows[y].enumerated().compactMap { x, glyph in glyph.map { ($0, x) } }
        return glyphs.indices.first { glyphs[$0...].map(\.0).joined().hasPrefix(needle) }.map { glyphs[$0].1 }
    }

    mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        rows = Self.blankRows(width: width, height: height)
        sgr = Array(repeating: Array(repeating: "", count: width), count: height)
        cursorX = 0
        cursorY = 0
    }

    mutating func feed(_ bytes: [UInt8]) {
        pending += bytes
        var i = 0
        while i < pending.count {
            let b = pending[i]
            if b == 0x1B {
                guard i + 1 < pending.count else { break }
                if pending[i + 1] == UInt8(ascii: "[") {
                    var j = i + 2
                    while j < pending.count, !(0x40...0x7E).contains(pending[j]) { j += 1 }
                    guard j < pending.count else { break }
                    control(String(decoding: pending[(i + 2)..<j], as: UTF8.self), final: pending[j])
                    i = j + 1
                } else {
                    i += 2  // two-byte escapes: not used by the panel
                }
                continue
            }
            if b < 0x20 {
                switch b {
                case 0x0D: cursorX = 0
                case 0x0A: cursorY = min(cursorY + 1, height - 1)
                default: break
                }
                i += 1
                continue
            }
            let length = b < 0x80 ? 1 : (b >= 0xF0 ? 4 : (b >= 0xE0 ? 3 : 2))
            guard i + length <= pending.count else { break }
            let scalar = String(decoding: pending[i..<(i + length)], as: UTF8.self).unicodeScalars.first ?? "?"
            put(scalar)
            i += length
        }
        pending.removeFirst(i)
    }

    private mutating func put(_ scalar: Unicode.Scalar) {
        guard cursorY >= 0, cursorY < height, cursorX >= 0 else { return }
        let columns = Self.columns(scalar)
        guard columns >= 0 else { return }  // not printable: nothing happens
        guard columns > 0 else {
            if let (x, y) = lastGlyph, let glyph = rows[y][x] { rows[y][x] = glyph + String(scalar) }
            return
        }
        let (x, y) = (cursorX, cursorY)
        // A wide glyph with one column left: not drawn (autowrap is off, it cannot wrap).
        guard x + columns <= width else { return }
        if rows[y][x] == nil { rows[y][x - 1] = " " }
        if x + columns < width, rows[y][x + columns] == nil { rows[y][x + columns] = " " }
        rows[y][x] = String(scalar)
        sgr[y][x] = lastSGR
        if columns == 2 {
            rows[y][x + 1] = nil
            sgr[y][x + 1] = lastSGR
        }
        lastGlyph = (x, y)
        // Autowrap is off in the panel: at the last column the cursor stays, and the next
        // character overwrites it.
        cursorX = min(x + columns, width - 1)
    }

    /// The columns a terminal gives `scalar` (-1: not printable), from the C library in a
    /// UTF-8 locale. `uselocale` switches only this thread, so tests running beside this one
    /// keep theirs.
    static func columns(_ scalar: Unicode.Scalar) -> Int {
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return Int(wcwidth(wchar_t(scalar.value)))
    }

    private mutating func control(_ parameters: String, final: UInt8) {
        let isPrivate = parameters.hasPrefix("?")
        let body = isPrivate ? String(parameters.dropFirst()) : parameters
        let numbers = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch (isPrivate, Character(Unicode.Scalar(final))) {
        case (false, "H"):
            cursorY = max((numbers.first.flatMap { $0 } ?? 1) - 1, 0)
            cursorX = max((numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1, 0)
        case (false, "C"):
            cursorX = min(cursorX + max(numbers.first.flatMap { $0 } ?? 1, 1), width - 1)
        case (false, "D"):
            cursorX = max(cursorX - max(numbers.first.flatMap { $0 } ?? 1, 1), 0)
        case (false, "A"):
            cursorY = max(cursorY - max(numbers.first.flatMap { $0 } ?? 1, 1), 0)
        case (false, "B"):
            cursorY = min(cursorY + max(numbers.first.flatMap { $0 } ?? 1, 1), height - 1)
        case (false, "G"):
            cursorX = min(max((numbers.first.flatMap { $0 } ?? 1) - 1, 0), width - 1)
        case (false, "J"):
            if numbers.first.flatMap({ $0 }) == 2 {
                rows = Self.blankRows(width: width, height: height)
                sgr = Array(repeating: Array(repeating: "", count: width), count: height)
            }
        case (false, "m"):
            lastSGR = body
        case (true, "h"):
            for n in numbers.compactMap({ $0 }) {
                if n == 25 { cursorHidden = false; continue }
                if n == 1049, !modes.contains(1049) {
                    savedPrimary = rows
                    rows = Self.blankRows(width: width, height: height)
                }
                modes.insert(n)
            }
        case (true, "l"):
            for n in numbers.compactMap({ $0 }) {
                if n == 25 { cursorHidden = true; continue }
                if n == 1049, modes.contains(1049), let primary = savedPrimary {
                    rows = primary
                    savedPrimary = nil
                }
                modes.remove(n)
            }
        default:
            break  // queries and anything else: no effect on the picture
        }
    }
}
