import Parameters

/// Turns an OSC message into a request, or says in one line why it is ignored: an unknown
/// address or parameter, the wrong arguments, a value that is not finite or not in range.
/// Pure, so every rule is tested without a socket.
///
/// ```swift
/// OSCRouter.route("/detent/param/cutoff", [.float(800)], table: LowpassGain.table)
/// // .success(.set(.cutoff, 800))
/// ```
public enum OSCRouter {
    public static let prefix = "/detent/"

    public static func route(_ path: String, _ arguments: [OSCArgument], table: ParameterTable)
        -> Result<OSCRequest, OSCRejection>
    {
        guard path.hasPrefix(prefix) else { return .failure(.init("unknown address \(path)")) }
        let parts = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        func parameter(_ id: String) -> Result<ParameterIndex, OSCRejection> {
            guard let index = table.find(id) else { return .failure(.init("\(path): no parameter '\(id)'")) }
            return .success(index)
        }
        func number() -> Result<Double, OSCRejection> {
            guard arguments.count == 1, let value = arguments[0].number else {
                return .failure(.init("\(path): expects one number"))
            }
            guard value.isFinite else { return .failure(.init("\(path): the value is not finite")) }
            return .success(value)
        }
        func none(_ request: OSCRequest) -> Result<OSCRequest, OSCRejection> {
            arguments.isEmpty ? .success(request) : .failure(.init("\(path): expects no arguments"))
        }
        if parts.count == 2, parts[0] == "param" {
            return parameter(parts[1]).flatMap { index in
                number().flatMap { value in
                    let spec = table[index]
                    guard spec.range.contains(value) else {
                        return .failure(.init("\(path): \(value) is outside \(spec.format(spec.range.lowerBound, ascii: true)) … \(spec.format(spec.range.upperBound, ascii: true))"))
                    }
                    return .success(.set(index, value))
                }
            }
        }
        if parts.count == 3, parts[0] == "param", parts[2] == "norm" {
            return parameter(parts[1]).flatMap { index in
                number().flatMap { position in
                    guard (0...1).contains(position) else { return .failure(.init("\(path): a position is 0 … 1")) }
                    return .success(.setPosition(index, position))
                }
            }
        }
        if parts.count == 2, parts[0] == "get" {
            return parameter(parts[1]).flatMap { index in none(.get(index)) }
        }
        switch parts {
        case ["preset", "load"]:
            guard arguments.count == 1, case .string(let name) = arguments[0] else {
                return .failure(.init("\(path): expects one string, the preset's name"))
            }
            return .success(.presetLoad(name))
        case ["reset"]: return none(.reset)
        case ["subscribe"]: return none(.subscribe)
        case ["unsubscribe"]: return none(.unsubscribe)
        default: return .failure(.init("unknown address \(path)"))
        }
    }

    /// The address feedback and answers use for a parameter.
    public static func address(of index: ParameterIndex, in table: ParameterTable) -> String {
        prefix + "param/" + table[index].id
    }
}

/// Why a message was ignored, one line.
public struct OSCRejection: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
