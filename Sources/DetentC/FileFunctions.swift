import OfflineRender

// The C interface to sound files (Python's `detent.io.AudioFile`): read and written in chunks
// through the reader and writer `detent render` uses. A file is an opaque pointer made by
// `detent_file_open_read` or `detent_file_open_write` and ended by `detent_file_free`; samples
// cross as `channels` rows of floats `stride` apart. Every function that can fail returns a
// ``CallStatus`` and hands its line through `error` (freed with `detent_free`); a call on a file
// another thread is inside is refused with `busy`.

private func opened(_ file: UnsafeMutableRawPointer) -> OpenSoundFile {
    Unmanaged<OpenSoundFile>.fromOpaque(file).takeUnretainedValue()
}

/// Opens the sound file at `path` for reading, in any format libsndfile reads.
@_cdecl("detent_file_open_read")
public func detent_file_open_read(_ path: UnsafePointer<CChar>, _ file: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                                  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    answer(error) {
        file.pointee = Unmanaged.passRetained(try OpenSoundFile(reading: String(cString: path))).toOpaque()
    }
}

/// Starts writing a sound file at `path` as `request` (a JSON object: ``FileWriteRequest``)
/// asks. The samples go to a temporary file beside it, which `detent_file_close` names when
/// whole; an existing file is refused unless the request says `force`.
@_cdecl("detent_file_open_write")
public func detent_file_open_write(_ path: UnsafePointer<CChar>, _ request: UnsafePointer<CChar>,
                                   _ file: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
                                   _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    answer(error) {
        let asked = try FileWriteRequest(json: String(cString: request))
        file.pointee = Unmanaged.passRetained(try OpenSoundFile(writing: String(cString: path), request: asked)).toOpaque()
    }
}

/// What the file is, as a JSON object (``OpenSoundFile/info()``).
@_cdecl("detent_file_info")
public func detent_file_info(_ file: UnsafeMutableRawPointer, _ info: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let file = opened(file)
    return answer(error) { info.pointee = handed(try file.exclusive { file.info() }.compactText) }
}

/// Reads up to `frames` frames into `channels` rows `stride` floats apart from `rows`; `read`
/// receives how many were read (fewer only at the end of the file, 0 after it).
@_cdecl("detent_file_read")
public func detent_file_read(_ file: UnsafeMutableRawPointer, _ rows: UnsafeMutablePointer<Float>, _ stride: Int64,
                             _ frames: Int64, _ read: UnsafeMutablePointer<Int64>,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let file = opened(file)
    return answer(error) {
        read.pointee = Int64(try file.exclusive { try file.read(into: rows, stride: Int(stride), frames: Int(max(0, frames))) })
    }
}

/// Goes to frame `frame` of a file being read, where the next read starts.
@_cdecl("detent_file_seek")
public func detent_file_seek(_ file: UnsafeMutableRawPointer, _ frame: Int64,
                             _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let file = opened(file)
    return answer(error) { try file.exclusive { try file.seek(to: frame) } }
}

/// Writes `frames` frames from `channels` rows `stride` floats apart from `rows`, in the file's
/// encoding (integer PCM quantised as a render quantises it, with the dither asked for).
@_cdecl("detent_file_write")
public func detent_file_write(_ file: UnsafeMutableRawPointer, _ rows: UnsafePointer<Float>, _ stride: Int64, _ frames: Int64,
                              _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let file = opened(file)
    return answer(error) { try file.exclusive { try file.write(from: rows, stride: Int(stride), frames: Int(max(0, frames))) } }
}

/// Finishes a file being written — its header completed, flushed, synced — and gives it its
/// name (on failure nothing appears under it); lets a read file go. Later calls on it refuse.
@_cdecl("detent_file_close")
public func detent_file_close(_ file: UnsafeMutableRawPointer, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    let file = opened(file)
    return answer(error) { try file.exclusive { try file.close() } }
}

/// Frees a file. One being written that was not closed is abandoned: its temporary file is
/// removed and nothing appears under its name.
@_cdecl("detent_file_free")
public func detent_file_free(_ file: UnsafeMutableRawPointer?) {
    guard let file else { return }
    let open = Unmanaged<OpenSoundFile>.fromOpaque(file)
    open.takeUnretainedValue().abandon()
    open.release()
}
