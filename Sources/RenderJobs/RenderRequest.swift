import TextFormats
import Rig

extension RenderOptions {
    /// A render's options from the JSON object a caller in another language sends (Python's
    /// `detent.render`): `inputs`, and every option ``RenderOption`` offers by its Python key,
    /// read as a manifest's fields are. The summary is JSON and nothing is printed.
    ///
    /// - Throws: ``UsageError`` naming an unknown key or a value of the wrong kind.
    package init(request text: String) throws(UsageError) {
        let members: [JSONMember]
        do {
            guard case .object(let object) = try JSONParser.parse(Array(text.utf8)) else {
                throw UsageError("render: the request is not a JSON object")
            }
            members = object
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("render: the request is not JSON (\(error))")
        }
        self.init()
        json = true
        quiet = true
        for member in members {
            let key = member.key, value = member.value
            if case .null = value { continue }
            let option: RenderOption? = key == "inputs" ? nil : RenderOption.python(key)
            guard key == "inputs" || option != nil else { throw UsageError("render: unknown option '\(key)'") }
            let read: RenderOption.Value
            do throws(JSONFieldProblem) {
                // A caller's paths are its own: taken as they are.
                read = try RenderOption.value(json: value, kind: option?.kind ?? .texts, key: key) { _, file in file }
            } catch {
                throw UsageError("render: " + error.reason)
            }
            if let option {
                option.apply(&self, read)
            } else if case .texts(let files) = read {
                inputs = files
            }
        }
        if inputs.isEmpty && midi == nil && batch.manifest == nil { throw UsageError("render: no input files") }
    }
}

extension RenderOption.Kind {
    /// How a caller in another language is told the kind (`detent_render_options`): `text`,
    /// `texts`, `number`, `whole` or `flag`.
    package var jsonName: String {
        switch self {
        case .text, .path: "text"
        case .texts, .namedPaths: "texts"
        case .number: "number"
        case .whole, .seed: "whole"
        case .flag: "flag"
        }
    }
}
