import Glibc

/// A terminal's line settings (`termios`), as a value: read as found, made raw, put back.
package struct TerminalSettings: Equatable, @unchecked Sendable {
    var value: termios

    package static func == (a: Self, b: Self) -> Bool {
        a.value.c_iflag == b.value.c_iflag && a.value.c_oflag == b.value.c_oflag && a.value.c_cflag == b.value.c_cflag
            && a.value.c_lflag == b.value.c_lflag
            && withUnsafeBytes(of: a.value.c_cc, { Array($0) }) == withUnsafeBytes(of: b.value.c_cc, { Array($0) })
    }

    /// Raw mode: no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z and Ctrl-\
    /// arrive as bytes), no flow control, no output processing; a read returns as soon as one
    /// byte is there.
    package var raw: TerminalSettings {
        var raw = value
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON | INLCR | IGNCR)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return TerminalSettings(value: raw)
    }
}

/// The terminal calls: its settings, its size, whether a descriptor is one.
package enum TerminalMode {
    /// The settings of the terminal on `descriptor` now.
    package static func settings(of descriptor: Int32) throws(SystemCallError) -> TerminalSettings {
        var value = termios()
        try systemCall("tcgetattr") { tcgetattr(descriptor, &value) }
        return TerminalSettings(value: value)
    }

    /// Applies `settings`: once what was written has gone out, and dropping unread input
    /// when `droppingInput` (entering raw mode: keys typed before it are not commands).
    package static func apply(_ settings: TerminalSettings, to descriptor: Int32, droppingInput: Bool) throws(SystemCallError) {
        var value = settings.value
        try systemCall("tcsetattr") { tcsetattr(descriptor, droppingInput ? TCSAFLUSH : TCSADRAIN, &value) }
    }

    /// The window's size in cells, and in pixels when the terminal tells (0 otherwise); nil
    /// when it will not say.
    package static func size(of descriptor: Int32) -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)? {
        var ws = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else { return nil }
        return (Int(ws.ws_col), Int(ws.ws_row), Int(ws.ws_xpixel), Int(ws.ws_ypixel))
    }

    /// Standard input's and output's descriptors.
    package static let standardInput = STDIN_FILENO
    package static let standardOutput = STDOUT_FILENO
}
