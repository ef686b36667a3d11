import CLilv
import CPluginKernel
import CRealtime
import Parameters
import Platform

/// LV2 state (`state:interface`): what a plug-in keeps beyond its control ports — the file it
/// loaded, a sample, a table — restored from a preset before the first block and saved into
/// a folder beside a preset, through lilv, which gives the plug-in `state:mapPath`,
/// `makePath` and `freePath` so the paths it stores are relative to the state's folder.
extension PluginInstances {
    /// Restores `state` into an activated instance, off the audio thread: lilv reads it (a
    /// folder's `state.ttl`, or a preset the plug-in ships), the plug-in's `restore` takes
    /// it, and work it hands its worker is done there and then, answered after a `run` of no
    /// frames — so the plug-in holds its state from the first frame, live as offline.
    ///
    /// - Returns: why the state could not be read (the plug-in keeps its defaults), or nil.
    static func restore(_ state: SavedState, into instance: UnsafeMutablePointer<LilvInstance>, world: OpaquePointer,
                        features: UnsafePointer<UnsafePointer<LV2_Feature>?>, record: UnsafeMutablePointer<DetentLV2Instance>,
                        outputs: [UnsafeMutablePointer<LV2_Atom_Sequence>], capacity: Int, urids: URIDMap) -> String? {
        let saved: OpaquePointer?
        switch state {
        case .folder(let path, _):
            let file = path + "/state.ttl"
            if let reason = PathString.readProblem(file) { return "cannot read the saved state '\(file)': \(reason)" }
            saved = lilv_state_new_from_file(world, urids.mapFeature, nil, file)
        case .preset(let uri):
            let node = lilv_new_uri(world, uri)
            defer { lilv_node_free(node) }
            lilv_world_load_resource(world, node)
            saved = lilv_state_new_from_world(world, urids.mapFeature, node)
        case .slots:
            // A chain's state is given to each slot's own plug-in (`Processor.settingState`).
            return nil
        }
        guard let saved else { return "cannot read the saved state \(state.name)" }
        defer { lilv_state_free(saved) }
        let threaded = record.pointee.threaded
        record.pointee.threaded = 0
        // The plug-in's restore and run are its code: the caller's floating-point mode is given back.
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        lilv_state_restore(saved, instance, nil, nil, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features)
        runBeforeAudio(instance, record: record, outputs: outputs, capacity: capacity, chunk: urids.map(LV2URI.atom + "Chunk"),
                       frames: 0)
        record.pointee.threaded = threaded
        return nil
    }

    /// Saves the first instance's state into `directory` (made if needed): `state.ttl` and
    /// `manifest.ttl`, written by lilv, and a copy of every file the state refers to, so the
    /// folder holds everything and moves as one; the state names those files relative to it.
    ///
    /// - Returns: the names of the copied files, relative to `directory`.
    /// - Throws: ``PluginError/stateNotSaved(name:reason:)``.
    func saveState(to directory: String) throws(PluginError) -> [String] {
        guard let instance = instances.first else { throw .stateNotSaved(name: plugin.name, reason: "no instance") }
        let urids = URIDMap.shared
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        let saved: Int32 = LV2World.shared.withWorld { world, _ in
            guard let lilvPlugin = PluginCatalog.lilvPlugin(plugin.uri, in: world),
                  let state = lilv_state_new_from_instance(
                    lilvPlugin, instance, urids.mapFeature, nil, nil, directory, directory, nil, nil,
                    UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features[0].array) else { return -1 }
            defer { lilv_state_free(state) }
            return lilv_state_save(world, urids.mapFeature, urids.unmapFeature, state, nil, directory, "state.ttl")
        }
        guard saved == 0 else { throw .stateNotSaved(name: plugin.name, reason: "lilv could not write '\(directory)'") }
        // lilv links the files the state refers to; a link breaks when its target moves, so
        // each becomes a copy.
        let entries: [String]
        do { entries = try FolderEntries.names(in: directory) } catch {
            throw .stateNotSaved(name: plugin.name, reason: "cannot read '\(directory)': \(error)")
        }
        var names: [String] = []
        for name in entries where name != "state.ttl" && name != "manifest.ttl" {
            let path = directory + "/" + name
            guard let entry = FileStatus(entryAt: path) else { continue }
            if entry.kind == .link {
                do { try FileCopy.copy(path, over: path) } catch {
                    throw .stateNotSaved(name: plugin.name, reason: "cannot copy the file '\(path)' links to: \(error)")
                }
            }
            names.append(name)
        }
        return names.sorted()
    }
}

extension SavedState {
    /// How a message names the state: its folder, or the shipped preset's URI.
    var name: String {
        switch self {
        case .folder(let path, _): "'\(path)'"
        case .preset(let uri): "<\(uri)>"
        case .slots(let states): states.keys.sorted().map { "\($0): " + states[$0]!.name }.joined(separator: ", ")
        }
    }
}
