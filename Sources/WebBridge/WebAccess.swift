/// Who may use the panel: the rules every HTTP request and WebSocket upgrade passes, pure so
/// each is tested without a socket.
///
/// - On loopback without a token, the `Host` header must name this machine (`localhost`,
///   `127.x.x.x`, `[::1]`): a page on another site whose name an attacker points at
///   127.0.0.1 (DNS rebinding) sends its own name there, and is refused.
/// - With a token (always beyond loopback), every request carries it: `?token=…` or
///   `Authorization: Bearer …`, compared in constant time.
/// - An `Origin`, which browsers send with every WebSocket and every cross-site request, must
///   be the page's own (`http://` + the `Host` header): another site's page cannot drive a rig.
package struct WebAccess: Sendable, Equatable {
    /// The secret every request must carry, or nil (loopback only).
    package let token: String?

    package init(token: String?) { self.token = token }

    /// The longest request target accepted (path and query), in bytes.
    package static let maximumTargetLength = 2048

    /// Why a request is refused, or nil when it may go on.
    package func refusal(host: String?, origin: String?, query: [(String, String)], authorization: String?) -> String? {
        if let token {
            let offered = query.first { $0.0 == "token" }?.1
                ?? authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard let offered, Self.same(offered, token) else { return "a token is required (the start-up URL has it)" }
        } else {
            guard let host, Self.isLoopbackName(host) else { return "Host '\(host ?? "")' is not this machine" }
        }
        if let origin {
            guard let host, origin.lowercased() == "http://" + host.lowercased() else {
                return "Origin '\(origin)' is not this panel's"
            }
        }
        return nil
    }

    /// `localhost`, `127.x.x.x` or `[::1]`, with or without a port.
    package static func isLoopbackName(_ host: String) -> Bool {
        let name: Substring
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            name = host[host.index(after: host.startIndex)..<close]
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || (rest.first == ":" && rest.dropFirst().allSatisfy(\.isNumber)) else { return false }
            return name == "::1"
        }
        let parts = host.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.count == 1 || (!parts[1].isEmpty && parts[1].allSatisfy(\.isNumber)) else { return false }
        name = parts[0]
        if name.lowercased() == "localhost" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }

    /// Whether an address only this machine can reach: 127.x.x.x or ::1.
    package static func isLoopbackAddress(_ address: String) -> Bool {
        address == "::1" || isLoopbackName(address) && address.lowercased() != "localhost" && !address.contains(":")
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the token.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }

    /// A new token: 128 bits from the system's random source, as 32 hexadecimal digits.
    package static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// A query string's items, percent-decoded (`a=1&b` gives `[("a","1"), ("b","")]`).
    package static func queryItems(_ query: String) -> [(String, String)] {
        query.split(separator: "&").map { item in
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(pair[0]), pair.count > 1 ? percentDecoded(pair[1]) : "")
        }
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
