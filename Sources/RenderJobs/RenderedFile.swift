import TextFormats
import OfflineRender
import Parameters

/// A rendered file as the report tells it: its `--json` summary, its warnings and its length.
///
/// Made from a ``RenderSummary`` where the file rendered, and carried as it is from a render
/// worker process to the batch that prints it (``RenderWorkerMessage``), so both print the
/// same lines.
package struct RenderedFile: Sendable, Equatable {
    /// The summary object of `--json`.
    package var summary: JSONValue
    package var warnings: [String]
    /// Seconds of audio written.
    package var duration: Double

    package init(summary: JSONValue, warnings: [String], duration: Double) {
        self.summary = summary
        self.warnings = warnings
        self.duration = duration
    }

    package init(_ summary: RenderSummary) {
        self.init(summary: summary.jsonValue, warnings: summary.warnings, duration: summary.duration)
    }
}
