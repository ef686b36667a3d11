import RenderJobs
import ArgumentParser
import Parameters
import Ladspa
import PluginFormats
import LV2
import Rig

/// `detent plugins`: the installed plug-ins of every format, and whether Detent can host each.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the installed LV2, LADSPA, DSSI, CLAP, VST3 and VST2 plug-ins: name, format, class, audio ports, parameters, whether Detent can host each, and its identifier.",
        discussion: """
            --check URI|NAME runs one plug-in's run() (LV2, LADSPA or DSSI) under clang's RealtimeSanitizer for a few \
            seconds of audio with its controls moving, and prints one line per kind of \
            real-time hazard it met (allocation, lock, blocking call), or that it was real-time \
            safe in this run. Exit status 0: safe in this run; 1: unsafe calls found; 70: the \
            plug-in crashed or hung; 69: no sanitizer runtime.
            """
    )

    @Argument(help: "Only plug-ins whose name, identifier, class, format or label contains this text (any case).")
    var text: String?

    @Option(help: ArgumentHelp("Only plug-ins of this format: lv2, ladspa, dssi, clap, vst3 or vst2.", valueName: "format"))
    var format: String?

    @Flag(help: "Print one JSON object per plug-in, one per line (with --check: the audit's result).")
    var json = false

    @Option(help: ArgumentHelp(
        "Audit one plug-in's run() for allocations, locks and blocking calls under RealtimeSanitizer.",
        valueName: "uri|name"))
    var check: String?

    @Option(help: ArgumentHelp("Seconds of audio the audit runs (0.1 … 60), as fast as the plug-in goes.", valueName: "seconds"))
    var seconds: Double?

    /// The audit's child (``RealtimeAuditRun``): the plug-in's URI.
    @Option(name: .customLong("audit-child"), help: .hidden)
    var auditChild: String?

    /// The audit child's limit on wall time, in seconds.
    @Option(name: .customLong("wall-limit"), help: .hidden)
    var wallLimit: Double = 30

    static let defaultSeconds = 4.0

    func validate() throws {
        if let seconds {
            guard check != nil || auditChild != nil else { throw ValidationError("--seconds goes with --check") }
            guard seconds.isFinite, seconds >= 0.1, seconds <= 60 else {
                throw ValidationError("invalid --seconds '\(RealtimeAuditReport.format(seconds))': expected 0.1 … 60")
            }
        }
        if let format, !InstalledPlugins.catalogue.formats.contains(where: { $0.name.lowercased() == format.lowercased() }) {
            throw ValidationError("invalid --format '\(format)': expected one of "
                + InstalledPlugins.catalogue.formats.map { $0.name.lowercased() }.joined(separator: ", "))
        }
        if check != nil, text != nil {
            throw ValidationError("--check audits one plug-in; give it alone, not with the filter '\(text!)'")
        }
    }

    func run() throws {
        if let auditChild {
            return try RealtimeAuditRun.run(uri: auditChild, seconds: seconds ?? Self.defaultSeconds,
                                            wallLimit: .milliseconds(Int64(max(1, wallLimit) * 1000)))
        }
        if let check {
            return try RealtimeAudit.check(check, seconds: seconds ?? Self.defaultSeconds, json: json)
        }
        // With --format, only that format is read.
        let formats = InstalledPlugins.catalogue.formats.filter { format == nil || $0.name.lowercased() == format!.lowercased() }
        // A format that cannot be read (no lilv) fails the listing before any other is read.
        var found: [PluginEntry] = []
        for format in formats { found += try format.installed() }
        var plugins = PluginCatalogue.inListingOrder(found)
        if let text {
            let wanted = text.lowercased()
            plugins = plugins.filter { entry in
                ([entry.name, entry.identifier, entry.className, entry.format] + entry.aliases).contains { $0.lowercased().contains(wanted) }
            }
        }
        if json {
            for plugin in plugins { print(CatalogueListing.json(plugin).compactText) }
        } else if plugins.isEmpty {
            throw CommandFailure(text.map { "no installed plug-in matches '\($0)'" }
                ?? "no plug-ins are installed (LV2_PATH: \(PluginListing.searchPath); LADSPA_PATH: "
                + "\(LadspaFlavor.ladspa.folders.joined(separator: ":")))", exitCode: 1)
        } else {
            print(CatalogueListing.table(plugins), terminator: "")
            let hostable = plugins.filter(\.isHostable).count
            print("\(plugins.count) plug-ins, \(hostable) hostable")
        }
    }
}
