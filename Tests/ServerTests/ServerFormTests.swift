import Foundation
import HTTPTypes
import TestSupport
import Testing

/// Filling forms through the real server, on both engines: fields listed, values written into
/// the file (pypdf reads them back, an independent witness), the checks of `forms fill`
/// (read-only, options, length, lines), bodies a stranger wrote refused without touching
/// the file, and concurrent fillers of different fields all kept.
@Suite struct ServerFormTests {
    /// The fields' values as pypdf reads them from the file at `path`.
    static func witness(_ path: String) async throws -> [String: Any] {
        let script = """
            import json, sys
            from pypdf import PdfReader
            fields = PdfReader(sys.argv[1]).get_fields() or {}
            def plain(v):
                if v is None: return None
                if isinstance(v, list): return [str(x) for x in v]
                return str(v).lstrip("/")
            print(json.dumps({name: plain(field.get("/V")) for name, field in fields.items()}))
            """
        let result = try await Tool.run("python3", ["-c", script, path])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    @Test(arguments: ["mupdf", "poppler"]) func fieldsAreFilledInTheFile(engine: String) async throws {
        let harness = try ServerHarness(extra: ["forms.pdf"])
        let path = harness.docs + "/forms.pdf"
        try await harness.run(configure: { $0.renderer = .id(engine) }) { client in
            let document = documentPath("forms.pdf")
            let listed = try await client.get(document + "/form")
            let fields = try #require(listed.json as? [[String: Any]])
            #expect(Set(fields.compactMap { $0["name"] as? String }).isSuperset(of: ["name", "subscribe", "size", "colors", "country", "id"]))
            let name = try #require(fields.first { $0["name"] as? String == "name" })
            #expect(name["maxLength"] as? Int == 40 && (name["widgets"] as? [[String: Any]])?.first?["pageIndex"] as? Int == 0)
            #expect((try await client.get(documentPath("text.pdf") + "/form").json as? [Any])?.isEmpty == true)

            let body = #"{"name": "Grace Hopper", "subscribe": "Off", "size": "L", "colors": ["green"], "country": "fr", "address": "1 Main St\nSpringfield"}"#
            let filled = try await client.send(.post, document + "/form", body: Data(body.utf8))
            #expect(filled.status == .ok, "\(filled.status) \(filled.errorMessage ?? "")")
            let changed = Set(((filled.json as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
            #expect(changed == ["name", "subscribe", "size", "colors", "country", "address"])
            let values = try await Self.witness(path)
            #expect(values["name"] as? String == "Grace Hopper")
            #expect(values["subscribe"] as? String == "Off")
            #expect(values["size"] as? String == "L")
            #expect(values["colors"] as? String == "green" || values["colors"] as? [String] == ["green"])
            #expect(values["country"] as? String == "fr")
            #expect(values["address"] as? String == "1 Main St\nSpringfield")
        }
    }

    @Test func valuesAFieldDoesNotTakeAreRefusedAndTheFileIsUntouched() async throws {
        let harness = try ServerHarness(extra: ["forms.pdf"])
        let path = harness.docs + "/forms.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        try await harness.run { client in
            let document = documentPath("forms.pdf")
            let refused: [(String, HTTPResponse.Status)] = [
                (#"{"id": "43"}"#, .forbidden),  // read-only
                (#"{"name": "\#(String(repeating: "x", count: 41))"}"#, .unprocessableContent),  // past /MaxLen 40
                (#"{"name": "two\nlines"}"#, .unprocessableContent),  // a one-line field
                (#"{"colors": ["purple"]}"#, .unprocessableContent),  // not an option
                (#"{"size": "XXL"}"#, .unprocessableContent),  // not a state of the buttons
                (#"{"subscribe": ["Yes", "Off"]}"#, .unprocessableContent),  // one value
                (#"{"nosuchfield": "x"}"#, .unprocessableContent),
                (#"{"submit": "x"}"#, .unprocessableContent),  // a push button takes no value
                (#"{"name": 12}"#, .badRequest),
                (#"["name"]"#, .badRequest),
                ("not json", .badRequest),
            ]
            for (body, status) in refused {
                let answer = try await client.send(.post, document + "/form", body: Data(body.utf8))
                #expect(answer.status == status, "\(body.prefix(60)): \(answer.status) \(answer.errorMessage ?? "")")
                #expect(!(answer.errorMessage ?? "").contains(harness.folder))
            }
            // Hundreds of thousands of names: refused at once, in a message of a few of them.
            var many = "{"
            for index in 0..<200_000 { many += "\"f\(index)\":\"\"," }
            many += "\"last\":\"\"}"
            let flood = try await client.send(.post, document + "/form", body: Data(many.utf8))
            #expect(flood.status == .unprocessableContent && flood.data.count < 2_000, "\(flood.status), \(flood.data.count) bytes")
            // Other readers are served meanwhile and after.
            #expect(try await client.get(document + "/pages/0/text").status == .ok)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let readOnly = try ServerHarness(extra: ["forms.pdf"])
        try await readOnly.run(configure: { $0.allowsEditing = false }) { client in
            let answer = try await client.send(.post, documentPath("forms.pdf") + "/form", body: Data(#"{"name": "x"}"#.utf8))
            #expect(answer.status == .forbidden)
        }
    }

    @Test func everyFillAcknowledgedToConcurrentFillersIsInTheFile() async throws {
        let harness = try ServerHarness(extra: ["forms.pdf"])
        let path = harness.docs + "/forms.pdf"
        let fields = ["name", "address", "secret", "person.first", "person.last", "country"]
        let acknowledged = try await harness.run { client in
            try await withThrowingTaskGroup(of: (String, String)?.self) { group in
                for (index, field) in fields.enumerated() {
                    group.addTask {
                        let value = "writer \(index)"
                        let body = try JSONSerialization.data(withJSONObject: [field: value])
                        let answer = try await client.send(.post, documentPath("forms.pdf") + "/form", body: body)
                        return answer.status == .ok ? (field, value) : nil
                    }
                }
                return try await group.reduce(into: [String: String]()) { if let (field, value) = $1 { $0[field] = value } }
            }
        }
        #expect(acknowledged.count == fields.count)
        let values = try await Self.witness(path)
        for (field, value) in acknowledged { #expect(values[field] as? String == value, "\(field)") }
    }
}
