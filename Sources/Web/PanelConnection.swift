import AudioEngine
import Parameters
import WebBridge
import Synchronization

/// One open page: what is waiting to be sent to it, and the chain generation its requests are
/// read against. The feedback thread marks what changed; the socket's one writer takes it all
/// at once and sends the values current then, so a slow page gets fewer messages, never stale
/// ones, and nothing piles up.
final class PanelConnection: Sendable {
    struct Pending {
        /// Why the page may not change the rig (nil: it may), until it is told.
        var access: String??
        var layout = true
        var answers: [String] = []
        var catalogue: [CatalogueEntry]?
        var changed: Set<ParameterIndex> = []
        var errors: [String] = []
        var outputs: [OutputValue]?
        /// The preset names to offer, when they are new.
        var presets: [String]?
        var learnt: [LearntController] = []
        /// The isolated slots down, when that changed.
        var faults: [String: String]?
        /// The snapshot the page's last layout was drawn from.
        var shown: WebSnapshot?
    }

    private let pending: Mutex<Pending>
    private let wakeStream: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation
    /// Why this page may not change the rig or name files; nil when it may (``PanelTrust``).
    let editRefusal: String?

    init(editRefusal: String?) {
        self.editRefusal = editRefusal
        var first = Pending()
        first.access = .some(editRefusal)
        pending = Mutex(first)
        (wakeStream, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeContinuation.yield()
    }

    /// Wakes the writer whenever something is pending; ends with ``finish()``.
    var wakes: AsyncStream<Void> { wakeStream }

    func markChanged(_ indices: some Sequence<ParameterIndex>) {
        pending.withLock { $0.changed.formUnion(indices) }
        wakeContinuation.yield()
    }

    func markLayout() {
        pending.withLock { $0.layout = true }
        wakeContinuation.yield()
    }

    func markOutputs(_ values: [OutputValue]) {
        pending.withLock { $0.outputs = values }
        wakeContinuation.yield()
    }

    func markLearnt(_ learnt: LearntController) {
        pending.withLock { $0.learnt.append(learnt) }
        wakeContinuation.yield()
    }

    func markFaults(_ faults: [String: String]) {
        pending.withLock { $0.faults = faults }
        wakeContinuation.yield()
    }

    func markPresets(_ names: [String]) {
        pending.withLock { $0.presets = names }
        wakeContinuation.yield()
    }

    /// A rig edit's or a file's answer line.
    func answer(_ text: String) {
        pending.withLock { if $0.answers.count < 16 { $0.answers.append(text) } }
        wakeContinuation.yield()
    }

    func markCatalogue(_ entries: [CatalogueEntry]) {
        pending.withLock { $0.catalogue = entries }
        wakeContinuation.yield()
    }

    func report(_ error: String) {
        pending.withLock { if $0.errors.count < 16 { $0.errors.append(error) } }
        wakeContinuation.yield()
    }

    func finish() { wakeContinuation.finish() }

    /// The messages to send now, given the host's current snapshot.
    func take(_ now: WebSnapshot, title: String) -> [String] {
        pending.withLock { state in
            var out: [String] = []
            if let access = state.access {
                out.append(PanelMessages.access(refusal: access))
                state.access = nil
            }
            out += state.errors.map(PanelMessages.error)
            state.errors = []
            // A layout is sent again only when it differs from the one the page has: an edit's
            // is taken by whichever comes first, the writer woken by the edit's answer or the
            // feedback thread's mark, and the other finds it sent.
            let shownDiffers = state.shown.map { $0.generation != now.generation || state.layout && $0.layout != now.layout } ?? true
            state.layout = false
            if shownDiffers {
                out.append(PanelMessages.layout(now, title: title))
                state.shown = now
                state.changed = []
            } else if !state.changed.isEmpty {
                out.append(PanelMessages.values(state.changed.sorted(), now))
                state.changed = []
            }
            out += state.learnt.map(PanelMessages.learnt)
            state.learnt = []
            if let presets = state.presets {
                out.append(PanelMessages.presets(presets))
                state.presets = nil
            }
            if let outputs = state.outputs {
                out.append(PanelMessages.outputs(outputs))
                state.outputs = nil
            }
            if let faults = state.faults {
                out.append(PanelMessages.faults(faults))
                state.faults = nil
            }
            // After the layout: an edit's answer comes with the rig it made.
            out += state.answers.map(PanelMessages.answer)
            state.answers = []
            if let catalogue = state.catalogue {
                out.append(PanelMessages.catalogue(catalogue))
                state.catalogue = nil
            }
            return out
        }
    }

    /// The table and generation the page's requests mean, once it has a layout.
    var shown: WebSnapshot? { pending.withLock { $0.shown } }
}
