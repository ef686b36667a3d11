import ArgumentParser
@testable import DetentCLI
import Foundation
import RenderJobs
import Testing
import TextFormats
import Rig

/// The four readers of a render's options — ArgumentParser's (`RenderCommand`), the plain
/// line's (`PlainRenderArguments`), a manifest line's (`ManifestFields`) and a Python
/// request's (`RenderOptions(request:)`) — given the same options make the same
/// `RenderOptions`, every option of the one table included.
@Suite("Render options: one table, four readers")
struct RenderOptionReadersTests {
    /// A value for each option, as the command line writes it (a repeated option twice).
    static func words(for option: RenderOption) -> [[String]] {
        switch option.kind {
        case .text: [[option.flagName, "t-" + option.name]]
        case .path: [[option.flagName, "/files/" + option.name + ".wav"]]
        case .texts: [[option.flagName, "a-" + option.name], [option.flagName, "b-" + option.name]]
        case .namedPaths: [[option.flagName, "k=/files/k-" + option.name + ".wav"], [option.flagName, "j=/files/j-" + option.name + ".wav"]]
        case .number: [[option.flagName, "1.5"]]
        case .whole: [[option.flagName, "3"]]
        case .seed: [[option.flagName, "7"]]
        case .flag: [[option.flagName]]
        }
    }

    /// The same value as JSON.
    static func json(for option: RenderOption) -> JSONValue {
        switch option.kind {
        case .text: .string("t-" + option.name)
        case .path: .string("/files/" + option.name + ".wav")
        case .texts: .array([.string("a-" + option.name), .string("b-" + option.name)])
        case .namedPaths: .array([.string("k=/files/k-" + option.name + ".wav"), .string("j=/files/j-" + option.name + ".wav")])
        case .number: .number(1.5)
        case .whole: .number(3)
        case .seed: .number(7)
        case .flag: .bool(true)
        }
    }

    /// What ArgumentParser makes of `options` given on one `render` line after `in.wav`.
    static func parsed(_ options: [RenderOption]) throws -> RenderOptions {
        try RenderCommand.parse(["in.wav"] + options.flatMap { words(for: $0).joined() }).options
    }

    @Test("the plain reading and ArgumentParser agree on a line holding every option of the table")
    func commandLines() throws {
        let words = ["in.wav"] + RenderOption.all.flatMap { Self.words(for: $0).joined() }
        let plain = try #require(PlainRenderArguments.options(from: ["render"] + words))
        #expect(plain == (try RenderCommand.parse(words).options))
        // Every option reached its own place: none left at its default.
        for option in RenderOption.all {
            #expect(option.read(plain) != nil, "\(option.flagName) was not set")
        }
    }

    @Test("a manifest line's fields give a job what the same options give on the command line")
    func manifestLines() throws {
        let perFile = RenderOption.all.filter(\.perFile)
        #expect(perFile.map(\.name) == ManifestFields.options.map(\.name))
        let members = [JSONMember("input", .string("/files/in.wav"))] + perFile.map { JSONMember($0.name, Self.json(for: $0)) }
        let manifest = RenderManifest(path: "/files/jobs.jsonl")
        let job = try ManifestFields.apply(members, to: RenderOptions(), manifest: manifest, line: 1)
        var expected = try Self.parsed(perFile)
        expected.inputs = []
        #expect(job.options == expected)
        #expect(job.input == "/files/in.wav")
    }

    @Test("a Python request gives what the same options give on the command line")
    func pythonRequests() throws {
        let offered = RenderOption.all.filter { $0.python != nil }
        let request = JSONValue.object([JSONMember("inputs", .array([.string("in.wav")]))]
            + offered.map { JSONMember($0.python!, Self.json(for: $0)) })
        let read = try RenderOptions(request: request.compactText)
        var expected = try Self.parsed(offered)
        expected.json = true
        expected.quiet = true
        #expect(read == expected)
    }

    @Test("an unknown key and a value of the wrong kind are refused in one line, by every JSON reader")
    func refusals() throws {
        #expect(throws: UsageError.self) { try RenderOptions(request: #"{"inputs": ["a.wav"], "colour": "red"}"#) }
        let wrong = #expect(throws: UsageError.self) { try RenderOptions(request: #"{"inputs": ["a.wav"], "tail": true}"#) }
        #expect(wrong?.description == "render: 'tail' is a boolean, not a string")
        let manifest = RenderManifest(path: "/files/jobs.jsonl")
        let failed = #expect(throws: CommandFailure.self) {
            try ManifestFields.apply([JSONMember("input", .string("a.wav")), JSONMember("tail", .bool(true))], to: RenderOptions(),
                                     manifest: manifest, line: 5)
        }
        #expect(failed?.description.hasSuffix("5: 'tail' is a boolean, not a string") == true, "\(failed?.description ?? "")")
    }

    @Test("RenderCommand declares every option of the table, and no other")
    func declarations() throws {
        let help = RenderCommand.helpMessage(includeHidden: true, columns: 400)
        let declared = Set(help.matches(of: try Regex(#"(?:^|[\s,\[])(--[a-z][a-z-]*)"#)).map { String($0.output[1].substring!) })
        let table = Set(RenderOption.all.map(\.flagName))
        // ArgumentParser's own, and the worker's flag (a process's role, not a render option).
        let own: Set<String> = ["--help", "--version", "--render-worker"]
        #expect(declared.subtracting(own) == table, "declared only: \(declared.subtracting(own).subtracting(table).sorted()); table only: \(table.subtracting(declared).sorted())")
    }
}
