import Glibc

/// The lines of a file read in chunks, never held whole: a manifest of a million jobs costs
/// the memory of its longest line, and a line no one wants costs the time of finding its end.
///
/// ```swift
/// try FileLines.read(path: "jobs.jsonl") { number, line in
///     guard case .text(let bytes) = line else { return }   // valid during the call only
///     …
/// }
/// ```
package enum FileLines {
    /// One line (without its newline and a trailing carriage return), or the news that it was
    /// longer than the longest taken and was passed over up to its newline.
    package enum Line {
        case text(UnsafeBufferPointer<UInt8>)
        case tooLong
    }

    /// Calls `body` with each line of the file at `path` (`/dev/stdin` for standard input) and
    /// its number (from 1), in order, until it returns false; a last line without a newline is
    /// a line. `body`'s bytes are valid only during the call. The file is read `chunk` bytes at
    /// a time.
    ///
    /// - Throws: ``SystemCallError`` when the file cannot be opened or read (a folder fails to
    ///   read with `EISDIR`).
    package static func read(
        path: String, maximumLength: Int = 16 << 20, chunk: Int = 1 << 20,
        _ body: (_ number: Int, _ line: Line) -> Bool
    ) throws(SystemCallError) {
        let descriptor = try DescriptorIO.open(path, .readOnly)
        defer { _ = Glibc.close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk + maximumLength, alignment: 16)
        defer { buffer.deallocate() }
        let base = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var held = 0          // bytes of an unfinished line at the buffer's start
        var dropping = false  // passing over the rest of a line too long to take
        var number = 0
        func emit(_ start: Int, _ end: Int) -> Bool {
            number += 1
            if dropping || end - start > maximumLength { dropping = false; return body(number, .tooLong) }
            var last = end
            if last > start, base[last - 1] == UInt8(ascii: "\r") { last -= 1 }
            return body(number, .text(UnsafeBufferPointer(start: base + start, count: last - start)))
        }
        while true {
            let count = try DescriptorIO.read(descriptor, into: UnsafeMutableRawBufferPointer(start: base + held, count: chunk))
            if count == 0 {
                if held > 0 || dropping { _ = emit(0, held) }
                return
            }
            let end = held + count
            var start = 0
            while start < end, let found = memchr(base + start, 0x0A, end - start) {
                let newline = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - UnsafePointer(base)
                guard emit(start, newline) else { return }
                start = newline + 1
            }
            held = end - start
            if held > maximumLength {
                dropping = true
                held = 0
            } else if held > 0 && start > 0 {
                memmove(base, base + start, held)
            }
        }
    }
}
