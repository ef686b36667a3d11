/// Why an OSC socket could not be opened, in one line.
public struct OSCServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}
