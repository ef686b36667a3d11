/// Where a program of this package is: in the folder of this program (through
/// /proc/self/exe: an installed copy, the build folder, or the tests' folder beside it), else
/// the first on `PATH`. The one way `detent` finds `detent-web`, and a host finds the
/// `detent` that serves its isolated slots.
package enum ProgramSearch {
    /// The executable `name`, or nil when there is none.
    package static func beside(_ name: String) -> String? {
        var folders: [String] = []
        if let own = PathString.resolved("/proc/self/exe"), let slash = own.lastIndex(of: "/") {
            folders.append(String(own[..<slash]))
        }
        folders += (Environment.value("PATH") ?? "").split(separator: ":").map(String.init).filter { !$0.isEmpty }
        return folders.lazy.map { $0 + "/" + name }.first { PathString.isExecutable($0) }
    }
}
