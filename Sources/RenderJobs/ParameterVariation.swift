import Glibc
import Parameters
import Rig

/// `--vary ID=LOW..HIGH` or `--vary ID=A,B,C`: a parameter that each variant of a file draws
/// anew, so one command renders many randomised versions of its inputs (data augmentation,
/// preset exploration).
///
/// A range draws uniformly along the parameter's own taper: log-uniform for a logarithmic one
/// (cutoff in Hz: as many variants between 100 and 1k as between 1k and 10k), uniform for a
/// linear one (gain in dB); a stepped parameter (integer, toggle, enumeration) picks one of its
/// steps in the range, each equally likely. A list picks one of its values. Values are read as
/// `--set` reads them (`1.2k`, `-6dB`, an enumeration's label).
///
/// ```sh
/// detent render take.wav --vary cutoff=200..8k --vary gain=-12..0 --variants 20 --seed 7
/// ```
package struct ParameterVariation: Equatable {
    /// The option's text, for messages.
    package let text: String
    package let id: String
    package let choice: Choice

    package enum Choice: Equatable {
        case range(low: String, high: String)
        case list([String])
    }

    /// Reads `ID=LOW..HIGH` or `ID=A,B,…` (one value alone is a list of one).
    package init(parsing text: String) throws(UsageError) {
        self.text = text
        guard let eq = text.firstIndex(of: "="), !String(text[..<eq]).trimmedWhitespace.isEmpty else {
            throw UsageError("--vary '\(text)': expected ID=LOW..HIGH or ID=A,B,C (e.g. cutoff=200..8k)")
        }
        id = String(text[..<eq]).trimmedWhitespace
        let rest = String(text[text.index(after: eq)...])
        let characters = Array(rest)
        if let dots = characters.indices.dropLast().first(where: { characters[$0] == "." && characters[$0 + 1] == "." }) {
            let low = String(characters[..<dots]), high = String(characters[(dots + 2)...])
            guard !low.trimmedWhitespace.isEmpty, !high.trimmedWhitespace.isEmpty else {
                throw UsageError("--vary '\(text)': a range needs both ends, LOW..HIGH")
            }
            choice = .range(low: low, high: high)
        } else {
            let items = rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard !items.contains(where: { $0.trimmedWhitespace.isEmpty }) else {
                throw UsageError("--vary '\(text)': expected ID=LOW..HIGH or ID=A,B,C with no empty value")
            }
            choice = .list(items)
        }
    }

    /// The variation for `table`'s row `id`.
    ///
    /// - Throws: ``UsageError`` naming the option when the table has no such row, a value does
    ///   not read as one of its values, or a range holds none of a stepped parameter's steps.
    package func resolved(in table: ParameterTable) throws(UsageError) -> Resolved {
        let index: ParameterIndex
        do { index = try table.index(of: id) } catch { throw UsageError("--vary '\(text)': \(error.description)") }
        let spec = table[index]
        func parse(_ value: String) throws(UsageError) -> Double {
            do { return try spec.parse(value) } catch { throw UsageError("--vary '\(text)': \(error.description)") }
        }
        switch choice {
        case .list(let items):
            var values: [Double] = []
            for item in items { values.append(try parse(item)) }
            return Resolved(index: index, id: spec.id, draw: .list(values))
        case .range(let lowText, let highText):
            let a = try parse(lowText), b = try parse(highText)
            let (low, high) = (min(a, b), max(a, b))
            if let steps = spec.steps {
                let inside = steps.filter { (low...high).contains($0) }
                guard !inside.isEmpty else { throw UsageError("--vary '\(text)': no value of \(spec.id) lies in the range") }
                return Resolved(index: index, id: spec.id, draw: .list(inside))
            }
            if spec.kind == .integer {
                return Resolved(index: index, id: spec.id, draw: .integers(low.rounded(.up), high.rounded(.down)))
            }
            return Resolved(index: index, id: spec.id,
                            draw: spec.taper == .logarithmic && low > 0 ? .logarithmic(low, high) : .linear(low, high))
        }
    }

    /// A variation bound to one parameter of one table: what a variant draws.
    package struct Resolved {
        package let index: ParameterIndex
        /// The row's id as the table spells it, for `--json` and written manifests.
        package let id: String
        package let draw: Draw

        package enum Draw {
            case list([Double])
            case linear(Double, Double)
            case logarithmic(Double, Double)
            case integers(Double, Double)
        }

        /// One value, from one number of `random`.
        package func value(_ random: inout SplitMix64) -> Double {
            let u = random.unit()
            switch draw {
            case .list(let values):
                return values[min(Int(u * Double(values.count)), values.count - 1)]
            case .linear(let low, let high):
                return min(max(low + u * (high - low), low), high)
            case .logarithmic(let low, let high):
                return min(max(low * exp(u * log(high / low)), low), high)
            case .integers(let low, let high):
                return min(low + (u * (high - low + 1)).rounded(.down), high)
            }
        }
    }
}
