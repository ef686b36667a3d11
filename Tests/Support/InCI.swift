import Foundation

/// Conditions a test needs of the machine. Outside CI a test whose condition does not hold is
/// skipped, with its reason. In CI (`DETENT_CI=1`, set by `.ci/run`), where Scripts/setup
/// installs every tool the tests run and the tests run as root, such a test runs anyway, and
/// a condition that does not hold fails it: a skip is never mistaken for a pass.
public enum InCI {
    /// True in CI.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["DETENT_CI"] == "1" }

    /// `condition`, or true in CI.
    public static func required(_ condition: @autoclosure () -> Bool) -> Bool { isCI || condition() }
}
