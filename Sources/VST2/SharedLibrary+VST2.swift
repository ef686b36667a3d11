import CVst2
import Platform

extension SharedLibrary {
    /// The library's VST2 entry point (`VSTPluginMain`, else `main`), nil when it is not a
    /// VST2 plug-in.
    var vst2Entry: UnsafeMutableRawPointer? { detent_vst2_entry(handle) }
}
