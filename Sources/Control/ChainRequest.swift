import AudioEngine

/// `chain add`, `chain remove`, `chain move` as typed (the processor to add not yet found).
public enum ChainRequest: Equatable, Sendable {
    /// A processor by reference (a plug-in URI or name, `builtin`), as slot `name` (nil: one
    /// made from it), at `position` (1 is first; nil: last).
    case add(reference: String, name: String?, position: Int?)
    case remove(String)
    case move(String, to: Int)
    /// In a graph: a processor by reference as slot `name` on the connection `from>to` (a new
    /// branch from `from` to `to` where there is none).
    case insert(reference: String, name: String?, from: String, to: String)
    /// In a graph: a connection made, or taken away.
    case connect(from: String, to: String)
    case disconnect(from: String, to: String)
    /// A slot called by another name from now on (its parameters' ids follow it).
    case rename(String, to: String)
}

/// Why a chain edit was refused or failed: one line.
public struct ChainEditError: Error, Equatable, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Finds the processor a `chain add` names: the command line's plug-in catalogue.
public typealias ProcessorResolver = @Sendable (_ reference: String) throws -> Processor
