/// Which Detent this is: the one version the command line, the C interface and the Python
/// package report.
package enum DetentRelease {
    package static let version = "0.1.0"
}
