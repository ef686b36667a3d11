import CLadspa
import Platform

extension SharedLibrary {
    /// The library's `ladspa_descriptor` entry point, nil when it has none.
    var ladspaEntry: LADSPA_Descriptor_Function? {
        symbol("ladspa_descriptor").map { unsafeBitCast($0, to: LADSPA_Descriptor_Function.self) }
    }

    /// The library's `dssi_descriptor` entry point, nil when it has none.
    var dssiEntry: DSSI_Descriptor_Function? {
        symbol("dssi_descriptor").map { unsafeBitCast($0, to: DSSI_Descriptor_Function.self) }
    }
}
