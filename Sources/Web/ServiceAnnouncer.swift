import CAvahi
import Glibc

/// The rig announced over mDNS (DNS-SD, through Avahi's daemon): the OSCQuery server as
/// `_oscjson._tcp` and, when OSC is on, the OSC port as `_osc._udp`, so that OSCQuery browsers
/// and OSC surfaces on the network find it without being told an address.
///
/// Each service is announced where it can be reached: on every interface for a wildcard
/// address, on the interface holding a given one, and not at all when it listens on loopback
/// only (an address announced to the network would refuse everyone who tried it). Without a
/// daemon, one line says so and the announcement waits for one; nothing fails.
final class ServiceAnnouncer: @unchecked Sendable {
    /// One service: its DNS-SD type, its port, and the address it listens on.
    struct Service: Equatable {
        var type: String
        var port: Int
        var bind: String
    }

    /// Where a service listening on an address is announced.
    enum Scope: Equatable {
        /// Every interface, for IPv4 (`0`), IPv6 (`1`) or both (`-1`), Avahi's protocols.
        case everywhere(protocol: Int32)
        /// One interface, by index.
        case interface(Int32, protocol: Int32)
    }

    /// Where a service bound to `bind` is announced; nil for a loopback address.
    static func scope(of bind: String) -> Scope? {
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, bind, &v4) == 1 {
            let address = UInt32(bigEndian: v4.s_addr)
            if address >> 24 == 127 { return nil }
            if address == 0 { return .everywhere(protocol: 0) }
            return interface(holding: { $0.pointee.sa_family == sa_family_t(AF_INET) && $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr == v4.s_addr } }, protocol: 0)
        }
        guard inet_pton(AF_INET6, bind, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes == Array(repeating: 0, count: 15) + [1] { return nil }
        if bytes.allSatisfy({ $0 == 0 }) { return .everywhere(protocol: -1) }
        return interface(holding: { $0.pointee.sa_family == sa_family_t(AF_INET6) && $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) } == bytes } }, protocol: 1)
    }

    /// The interface with an address that `matches`, or every interface when none has it.
    private static func interface(holding matches: (UnsafeMutablePointer<sockaddr>) -> Bool, protocol: Int32) -> Scope {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return .everywhere(protocol: `protocol`) }
        defer { freeifaddrs(list) }
        var entry = list
        while let this = entry {
            if let address = this.pointee.ifa_addr, matches(address) {
                let index = if_nametoindex(this.pointee.ifa_name)
                if index > 0 { return .interface(Int32(index), protocol: `protocol`) }
            }
            entry = this.pointee.ifa_next
        }
        return .everywhere(protocol: `protocol`)
    }

    private let announcer: OpaquePointer
    private let sink: Unmanaged<Sink>

    /// Where Avahi's thread sends a line.
    private final class Sink {
        let log: @Sendable (String) -> Void
        init(_ log: @escaping @Sendable (String) -> Void) { self.log = log }
    }

    /// Announces `services` under `name`; nil when none can be reached from elsewhere, or
    /// when Avahi's library cannot be had (said in one line on `log`).
    init?(name: String, services: [Service], log: @escaping @Sendable (String) -> Void) {
        // The types' copies live through the call; the announcer keeps its own.
        var entries: [DetentService] = []
        for service in services {
            guard let scope = Self.scope(of: service.bind), let port = UInt16(exactly: service.port), port > 0 else { continue }
            let (interface, proto): (Int32, Int32) = switch scope {
            case .everywhere(let p): (-1, p)
            case .interface(let i, let p): (i, p)
            }
            entries.append(DetentService(type: UnsafePointer(strdup(service.type)), port: port, interface: interface, protocol: proto))
        }
        defer { entries.forEach { free(UnsafeMutablePointer(mutating: $0.type)) } }
        guard !entries.isEmpty else { return nil }
        let sink = Unmanaged.passRetained(Sink(log))
        var why = [CChar](repeating: 0, count: 256)
        let made = entries.withUnsafeBufferPointer { list in
            detent_announce_start(name.isEmpty ? "Detent" : name, list.baseAddress, Int32(list.count), { context, line in
                guard let context, let line else { return }
                Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue().log(String(cString: line))
            }, sink.toOpaque(), &why, Int32(why.count))
        }
        guard let made else {
            sink.release()
            log("mDNS: the panel is not announced: " + String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            return nil
        }
        announcer = made
        self.sink = sink
    }

    /// Withdraws the services.
    func stop() {
        detent_announce_stop(announcer)
        sink.release()
    }
}
