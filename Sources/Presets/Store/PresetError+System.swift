import Platform

extension PresetError {
    /// The I/O error naming `path`: what could not be done, then the system's reason
    /// (`cannot read: No such file or directory`).
    static func system(_ what: String, _ reason: Errno, path: String) -> PresetError {
        PresetError(.io("\(what): \(reason.description)"), source: path)
    }
}
