/// Why an OSC socket could not be opened, in one line.
package struct OSCServerError: Error, CustomStringConvertible, Sendable {
    package let description: String
}
