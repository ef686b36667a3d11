import Foundation
import Testing

/// `text` read by Foundation's JSON parser — independent of the project's own — as the object
/// it must be. Text that is not JSON throws the parser's error; JSON that is not an object
/// fails the test at the caller's line.
public func jsonObject(_ text: some StringProtocol, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String: Any]
{
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], sourceLocation: sourceLocation)
}
