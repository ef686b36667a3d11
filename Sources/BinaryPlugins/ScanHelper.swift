import Platform
import Synchronization

/// The program that reads binaries for a scan (``BinaryScan``): `detent scan FORMAT PATH`
/// (hidden), or for Python's binding its interpreter running `detent._slot scan FORMAT PATH`.
/// Set once by a host that is not `detent` itself; by default the `detent` beside this
/// program.
package struct ScanHelper: Sendable, Equatable {
    package var program: String
    /// The words before `scan`.
    package var arguments: [String]

    package init(program: String, arguments: [String] = []) {
        self.program = program
        self.arguments = arguments
    }

    private static let chosen = Mutex<ScanHelper?>(nil)

    /// The helper scans use: the one set, else `detent` beside this program; nil when there
    /// is none (a scan then reads binaries in this process, unprotected).
    package static var current: ScanHelper? {
        get { chosen.withLock { $0 } ?? ProgramSearch.beside("detent").map { ScanHelper(program: $0) } }
    }

    /// Makes `helper` the one scans use (Python's binding, at load).
    package static func use(_ helper: ScanHelper) { chosen.withLock { $0 = helper } }
}
