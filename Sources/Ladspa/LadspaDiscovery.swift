import CLadspa
import CPluginKernel
import CRealtime
import Platform

/// Reads the plug-ins of LADSPA's (or DSSI's) search path: every `.so` file of its folders,
/// in path order and then name order, and every descriptor its entry point gives. Nothing is
/// instantiated, except a DSSI plug-in with programs, once, to read them. A library that does
/// not load, lacks the entry point, or gives a malformed descriptor is listed with the reason it
/// cannot be hosted.
enum LadspaDiscovery {
    /// Descriptors read from one library at most: an entry point that never returns NULL
    /// stops here.
    static let mostDescriptors = 4096
    /// Ports one descriptor may declare (more is taken as garbage).
    static let mostPorts = 4096

    /// Every plug-in of `flavor`'s path.
    static func installed(_ flavor: LadspaFlavor) -> [LadspaPlugin] {
        libraryPaths(flavor).flatMap { library($0, flavor: flavor) }
    }

    /// The library files of `flavor`'s path, in the order they are read: folder by folder,
    /// each folder's `.so` files in name order, a name in an earlier folder hiding the same
    /// name in a later one.
    static func libraryPaths(_ flavor: LadspaFlavor) -> [String] {
        var paths: [String] = []
        var seen = Set<String>()
        for folder in flavor.folders {
            for name in ((try? FolderEntries.names(in: folder)) ?? []).sorted() where name.hasSuffix(".so") {
                let path = folder + "/" + name
                guard seen.insert(name).inserted, PathString.isRegularFile(path) else { continue }
                paths.append(path)
            }
        }
        return paths
    }

    /// The plug-ins of one library file.
    static func library(_ path: String, flavor: LadspaFlavor) -> [LadspaPlugin] {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        func broken(_ reason: String) -> [LadspaPlugin] {
            [LadspaPlugin(flavor: flavor, path: path, index: -1, uniqueID: 0, label: file, name: file, maker: "",
                          properties: 0, ports: [], problem: reason)]
        }
        let library: SharedLibrary
        switch LoadedLibraries.open(path) {
        case .failure(let failure): return broken("cannot be loaded: \(failure.reason)")
        case .success(let opened): library = opened
        }
        var plugins: [LadspaPlugin] = []
        switch flavor {
        case .ladspa:
            guard let entry = library.ladspaEntry else { return broken("is not a LADSPA library (no ladspa_descriptor)") }
            for index in 0..<mostDescriptors {
                guard let descriptor = entry(UInt(index)) else { break }
                plugins.append(read(descriptor, dssi: nil, flavor: flavor, path: path, index: index))
            }
        case .dssi:
            guard let entry = library.dssiEntry else { return broken("is not a DSSI library (no dssi_descriptor)") }
            for index in 0..<mostDescriptors {
                guard let dssi = entry(UInt(index)) else { break }
                guard let descriptor = dssi.pointee.LADSPA_Plugin else {
                    plugins.append(LadspaPlugin(flavor: flavor, path: path, index: index, uniqueID: 0, label: "\(file)#\(index)",
                                                name: "\(file)#\(index)", maker: "", properties: 0, ports: [],
                                                problem: "has a DSSI descriptor without a LADSPA descriptor"))
                    continue
                }
                plugins.append(read(descriptor, dssi: dssi, flavor: flavor, path: path, index: index))
            }
        }
        return plugins
    }

    /// One descriptor, checked field by field before anything is read through it.
    static func read(_ d: UnsafePointer<LADSPA_Descriptor>, dssi: UnsafePointer<DSSI_Descriptor>?, flavor: LadspaFlavor,
                     path: String, index: Int) -> LadspaPlugin {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        let label = d.pointee.Label.map { String(cString: $0) } ?? ""
        let name = d.pointee.Name.map { String(cString: $0) } ?? label
        let maker = d.pointee.Maker.map { String(cString: $0) } ?? ""
        func malformed(_ reason: String) -> LadspaPlugin {
            LadspaPlugin(flavor: flavor, path: path, index: index, uniqueID: d.pointee.UniqueID,
                         label: label.isEmpty ? "\(file)#\(index)" : label, name: name.isEmpty ? "\(file)#\(index)" : name,
                         maker: maker, properties: d.pointee.Properties, ports: [], problem: "has a malformed descriptor: \(reason)")
        }
        if label.isEmpty { return malformed("no label") }
        let count = Int(d.pointee.PortCount)
        guard count <= mostPorts else { return malformed("\(count) ports") }
        guard count == 0 || (d.pointee.PortDescriptors != nil && d.pointee.PortNames != nil && d.pointee.PortRangeHints != nil) else {
            return malformed("its port lists are missing")
        }
        guard d.pointee.instantiate != nil, d.pointee.connect_port != nil else { return malformed("no instantiate or connect_port") }
        let isSynth = dssi?.pointee.run_synth != nil
        guard d.pointee.run != nil || isSynth else { return malformed("no run function") }
        var ports: [LadspaPort] = []
        for i in 0..<count {
            let kind = d.pointee.PortDescriptors![i]
            let input = kind & 0x1 != 0, output = kind & 0x2 != 0, control = kind & 0x4 != 0, audio = kind & 0x8 != 0
            guard input != output, control != audio else { return malformed("port \(i) is not one of input/output and control/audio") }
            let hint = d.pointee.PortRangeHints![i]
            let portName = d.pointee.PortNames![i].map { String(cString: $0) } ?? "Port \(i)"
            ports.append(LadspaPort(index: UInt32(i), name: portName, isInput: input, isAudio: audio,
                                    hints: LadspaHints(descriptor: hint.HintDescriptor, lower: hint.LowerBound, upper: hint.UpperBound)))
        }
        let programs = dssi.map { programsOf($0, d) } ?? []
        return LadspaPlugin(flavor: flavor, path: path, index: index, uniqueID: d.pointee.UniqueID, label: label,
                            name: name.isEmpty ? label : name, maker: maker, properties: d.pointee.Properties,
                            ports: ports, isSynth: isSynth, programs: programs)
    }

    /// A DSSI plug-in's programs, read from an instance made for that (at 48 kHz, never
    /// activated or run).
    static func programsOf(_ dssi: UnsafePointer<DSSI_Descriptor>, _ d: UnsafePointer<LADSPA_Descriptor>) -> [LadspaProgram] {
        guard let get = dssi.pointee.get_program, dssi.pointee.select_program != nil else { return [] }
        let mode = detent_denormals_off()
        defer { detent_denormals_restore(mode) }
        detent_plugin_lifecycle_lock()
        defer { detent_plugin_lifecycle_unlock() }
        guard let handle = d.pointee.instantiate?(d, 48_000) else { return [] }
        defer { d.pointee.cleanup?(handle) }
        var programs: [LadspaProgram] = []
        for i in 0..<1024 {
            guard let program = get(handle, UInt(i)) else { break }
            programs.append(LadspaProgram(bank: program.pointee.Bank, program: program.pointee.Program,
                                          name: program.pointee.Name.map { String(cString: $0) } ?? "Program \(i)"))
        }
        return programs
    }
}
