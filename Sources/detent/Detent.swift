import ArgumentParser

/// The `detent` command: a real-time-safe audio parameter host.
@main
struct Detent: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "detent",
        abstract: "A real-time-safe resonant lowpass and gain, driven like knobs on a synth.",
        discussion: """
            Detent runs one engine — a resonant lowpass followed by a gain stage, with every
            parameter smoothed — live through JACK or offline over audio files.
            """,
        version: version,
        subcommands: [ParamsCommand.self, RenderCommand.self, LiveCommand.self, PanelCommand.self, PresetCommand.self]
    )
}
