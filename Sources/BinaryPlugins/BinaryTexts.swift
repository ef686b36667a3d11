import CPluginKernel
import Parameters
import Synchronization

/// A binary plug-in's own words for its rows (``Parameters/ParameterTexts``), asked of an
/// instance of its own that is made at the first question and never runs.
///
/// Why an instance of its own: VST2 shows only a parameter's value *now*, so reading the text
/// for a value means setting it, which the running instance must never see; and VST3's and
/// CLAP's text calls belong to the main thread, while a panel or a command asks from its
/// own. This one is asked by one thread at a time (a lock), is never activated, and goes
/// with its processor. A plug-in that cannot be made gives no words: its rows show Detent's.
package final class BinaryTexts: Sendable {
    private let plugin: BinaryPlugin
    private let backend: any BinaryBackend
    private let made: Mutex<Made>

    private struct Made: ~Copyable {
        var instance: (any BinaryInstance)?
        var failed = false
        var recent = RecentTexts()

        /// The instance, made at the first question.
        mutating func instance(_ plugin: BinaryPlugin, _ backend: any BinaryBackend) -> (any BinaryInstance)? {
            if instance == nil, !failed {
                detent_plugin_lifecycle_lock()
                defer { detent_plugin_lifecycle_unlock() }
                instance = try? backend.instantiate(plugin, layout: BinaryPortLayout(plugin), sampleRate: 48_000, maxFrames: 4096)
                failed = instance == nil
            }
            return instance
        }
    }

    package init(plugin: BinaryPlugin, backend: any BinaryBackend) {
        self.plugin = plugin
        self.backend = backend
        made = Mutex(Made())
    }

    /// The words of the row for parameter `k` (its place in ``BinaryPlugin/parameters``).
    /// The plug-in's text shows in place of Detent's for a continuous row of 0…1 without a
    /// unit: a value Detent cannot say what it means.
    package func row(_ k: Int, spec: ParameterSpec) -> any ParameterTexts {
        let p = plugin.parameters[k]
        let unknown = spec.kind == .continuous && spec.range == 0...1 && p.unit.isEmpty
        return TextsRow(showsOwnText: unknown, shown: { [self] in text(parameter: k, value: $0) },
                        read: { [self] in value(parameter: k, text: $0) },
                        moved: { [self] row, reference, identifier in
                            helper(reference: reference, identifier: identifier).row(row, showsOwnText: unknown)
                        })
    }

    /// The process that answers for this plug-in run elsewhere: one for all its rows.
    private let helpers = Mutex<[String: HelperTexts]>([:])

    func helper(reference: String, identifier: String) -> HelperTexts {
        helpers.withLock { helpers in
            if let known = helpers[reference] { return known }
            let made = HelperTexts(reference: reference, identifier: identifier)
            helpers[reference] = made
            return made
        }
    }

    func text(parameter k: Int, value: Double) -> String? {
        let p = plugin.parameters[k]
        return made.withLock { made -> String? in
            guard let instance = made.instance(plugin, backend) else { return nil }
            return made.recent.text(row: k, value: value) { instance.text(p, value: value).flatMap(Self.printable) }
        }
    }

    func value(parameter k: Int, text: String) -> Double? {
        let p = plugin.parameters[k]
        return made.withLock { made -> Double? in made.instance(plugin, backend)?.value(p, text: text) }
    }

    /// A plug-in's text as one line Detent may print: without control characters (a
    /// terminal's escapes), spaces trimmed; nil when nothing is left.
    static func printable(_ text: String) -> String? {
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F
                                                                                     && !(0x80..<0xA0).contains($0.value) }))
            .trimmedWhitespace
        return kept.isEmpty ? nil : kept
    }

    deinit {
        made.withLock { made in
            guard made.instance != nil else { return }
            detent_plugin_lifecycle_lock()
            made.instance = nil
            detent_plugin_lifecycle_unlock()
        }
    }
}
