import AudioEngine
import Parameters
import Platform
import LV2
import Presets

/// A user preset saved with its plug-in's state: the state and copies of the files it refers
/// to in a folder beside the preset file (`Hall.json`, `Hall.state/`), named in the preset
/// relative to it, so the two move together.
///
/// Nothing is half-written: the state goes into a hidden folder first, the preset file is
/// written atomically (refused, with the folder removed, when it exists and --force is not
/// given), and only then does the folder take the state folder's name.
enum PresetStateFolder {
    /// Saves `preset` with the state of `processor`'s plug-in (its files and state as set).
    ///
    /// - Returns: the preset file's path.
    static func save(_ preset: Preset, processor: Processor, store: PresetStore, replacing: Bool) throws(PresetError) -> String {
        let fileName = try PresetFileName.fileName(for: preset.name)
        let folderName = String(fileName.dropLast(PresetFileName.fileExtension.count)) + ".state"
        let folder = store.userDirectory + "/" + folderName
        let partial = store.userDirectory + "/." + folderName + ".partial-\(ThisProcess.id)"
        FolderEntries.remove(folder: partial)
        var preset = preset
        do {
            preset.state = .folder(path: folderName, files: try PluginStates.save(processor, to: partial))
        } catch {
            FolderEntries.remove(folder: partial)
            throw PresetError(.io(error.description), source: preset.name)
        }
        let path: String
        do {
            path = try store.save(preset, replacing: replacing)
        } catch {
            FolderEntries.remove(folder: partial)
            throw error
        }
        // The old state folder (a preset saved again with --force) makes way, then goes.
        let old = store.userDirectory + "/." + folderName + ".old-\(ThisProcess.id)"
        let hadOld = (try? PathString.rename(folder, to: old)) != nil
        do { try PathString.rename(partial, to: folder) } catch {
            if hadOld { try? PathString.rename(old, to: folder) }
            FolderEntries.remove(folder: partial)
            throw PresetError(.io("cannot rename '\(partial)' to '\(folder)': \(error.errno)"), source: preset.name)
        }
        if hadOld { FolderEntries.remove(folder: old) }
        return path
    }
}
