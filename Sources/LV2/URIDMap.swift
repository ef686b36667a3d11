import CLilv
import Glibc
import Synchronization

/// The URID map and unmap features: one table for the process, so that every instance (and
/// every state and preset read) agrees on the numbers.
///
/// Plug-ins map URIs while they are made, not while they run; the lock is therefore never
/// taken on the audio thread by a plug-in that follows the LV2 rules.
final class URIDMap: @unchecked Sendable {
    static let shared = URIDMap()

    private struct Table {
        var ids: [String: LV2_URID] = [:]
        /// `uris[id - 1]`: C strings that live as long as the process (unmap hands them out).
        var uris: [UnsafeMutablePointer<CChar>] = []
    }
    private let table = Mutex(Table())

    /// The feature structures, made once.
    let mapFeature: UnsafeMutablePointer<LV2_URID_Map>
    let unmapFeature: UnsafeMutablePointer<LV2_URID_Unmap>

    private init() {
        mapFeature = .allocate(capacity: 1)
        mapFeature.initialize(to: LV2_URID_Map(handle: nil, map: { _, uri in
            guard let uri else { return 0 }
            return URIDMap.shared.map(String(cString: uri))
        }))
        unmapFeature = .allocate(capacity: 1)
        unmapFeature.initialize(to: LV2_URID_Unmap(handle: nil, unmap: { _, id in
            UnsafePointer(URIDMap.shared.unmap(id))
        }))
    }

    /// The URID of `uri`, made on first use.
    func map(_ uri: String) -> LV2_URID {
        table.withLock { t in
            if let id = t.ids[uri] { return id }
            t.uris.append(strdup(uri))
            let id = LV2_URID(t.uris.count)
            t.ids[uri] = id
            return id
        }
    }

    /// The URI of `id`, or nil for an id never given out.
    func unmap(_ id: LV2_URID) -> UnsafeMutablePointer<CChar>? {
        table.withLock { t in id >= 1 && Int(id) <= t.uris.count ? t.uris[Int(id) - 1] : nil }
    }
}
