/// How the web panel listens: `--http PORT`, `--http-bind ADDRESS`, `--http-token TOKEN`.
package struct WebSettings: Sendable, Equatable {
    /// The TCP port; 0 takes any free one (the start-up line says which).
    package var port: Int
    /// The address to listen on; 127.0.0.1 (this machine only) by default.
    package var bind: String
    /// The token every request must carry; made up at start when listening beyond loopback
    /// and none is given. On loopback there is none unless one is given.
    package var token: String?

    package init(port: Int, bind: String = "127.0.0.1", token: String? = nil) {
        self.port = port
        self.bind = bind
        self.token = token
    }

    /// The token in force: the given one, a new one beyond loopback, or none.
    package func resolvedToken() -> String? {
        token ?? (WebAccess.isLoopbackAddress(bind) ? nil : WebAccess.newToken())
    }

    /// Why a setting cannot be used, in one line, or nil.
    package var problem: String? {
        if !(0...65_535).contains(port) { return "--http \(port): a TCP port is 1 … 65535 (0: any free one)" }
        if let token, token.isEmpty || token.count > 256 || !token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) {
            return "--http-token: 1 … 256 letters, digits, '-', '_', '.' or '~'"
        }
        return nil
    }
}

/// Why the web panel cannot start, in one line.
package struct WebServerError: Error, Sendable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
