import Foundation
import HTTPTypes
import RendererProvider
@testable import RendererServer
import RendererServerHTTP
import RendererSignatures
import Testing
import TestSupport

/// The OpenAPI document the server serves is its contract: every route it answers is in it,
/// with its method, and nothing else is; the signature verdicts' codes are the library's; it
/// is a valid OpenAPI 3.1 document (checked by the
/// independent `openapi-spec-validator`). `Tests/Contract/run_schemathesis.py` then holds the
/// real server's answers to it.
@Suite struct ServerContractTests {
    /// The generated types and routes (the `Generated/` folders of `RendererServer` and
    /// `RendererCollaborationServer`) were made from the OpenAPI document and each module's
    /// generator configuration as they are now: each file's head names their SHA-256, as
    /// sha256sum computes them here. After a change to either, `make openapi` writes them
    /// again.
    @Test func theGeneratedCodeIsThatOfTheDocumentAsItIs() async throws {
        let document = Fixtures.root.appendingPathComponent("Sources/RendererServer/OpenAPI/openapi.yaml").path
        for module in ["RendererServer", "RendererCollaborationServer"] {
            let folder = Fixtures.root.appendingPathComponent("Sources/" + module)
            let digests = try await Tool.run("sha256sum", [document, folder.appendingPathComponent("OpenAPI/openapi-generator-config.yaml").path])
            #expect(digests.status == 0, "\(digests.stderr)")
            let named = digests.text.split(separator: "\n").map { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return "\(URL(fileURLWithPath: String(fields[1])).lastPathComponent) SHA-256 \(fields[0])"
            }
            let head = "// Made by make openapi from \(named.joined(separator: ", "))."
            let generated = folder.appendingPathComponent("Generated")
            let files = try FileManager.default.contentsOfDirectory(atPath: generated.path).filter { $0.hasSuffix(".swift") }.sorted()
            #expect(files.contains("Server.swift") && files.contains("Types.swift"), "\(module): \(files)")
            for file in files {
                let text = try String(contentsOf: generated.appendingPathComponent(file), encoding: .utf8)
                #expect(text.split(separator: "\n", maxSplits: 1).first.map(String.init) == head, "\(module)/\(file) was made from another document: run make openapi")
            }
        }
    }

    @Test func theOpenAPIDocumentNamesEveryRouteAndNoOther() async throws {
        let (harness, keys) = (try ServerHarness(), CollaborationServerTests.Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        var configuration = ServerConfiguration(roots: [harness.docs], token: ServerHarness.token, port: 0)
        configuration.collaboration = collaboration
        let routes = Set(try DocumentServer(configuration: configuration, registry: Fixtures.registry).routeDescriptions())
        let served = try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            try await client.get("/api/openapi.json")
        }
        #expect(served.status == .ok && served.headers[.contentType]?.hasPrefix("application/json") == true)
        let document = try #require(served.json as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        // A path item holds its operations (by method) and what they share (`parameters`).
        let methods: Set = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        let documented = Set(paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } })
        #expect(documented == routes, "only documented: \(documented.subtracting(routes).sorted()); only routed: \(routes.subtracting(documented).sorted())")

        // The verification codes the document lists are the library's, every one of them.
        func enums(_ value: Any) -> [[String]] {
            if let object = value as? [String: Any] { return (object["enum"] as? [String]).map { [$0] } ?? [] + object.values.flatMap(enums) }
            return (value as? [Any])?.flatMap(enums) ?? []
        }
        let codes = enums(document).filter { $0.contains("intact") }
        #expect(!codes.isEmpty && codes.allSatisfy { $0 == SignatureVerification.Code.allCases.map(\.rawValue) }, "\(codes)")

        let file = harness.folder + "/openapi.json"
        try served.data.write(to: URL(fileURLWithPath: file))
        let validated = try await Tool.run("python3", ["-c", "import sys, json\nfrom openapi_spec_validator import validate\nvalidate(json.load(open(sys.argv[1])))", file])
        #expect(validated.status == 0, "\(validated.stderr)")
    }

    /// The YAML the document is written in becomes JSON value for value (an alias as the
    /// value it names), and what JSON cannot hold (a date, a key that is not a string) is
    /// refused with a message naming its line, not served as something else.
    @Test func theYAMLDocumentBecomesJSONOrIsRefused() throws {
        let yaml = "a: [1, 2.5, true, null, '2020-01-02', text, '3.1.0']\nb: &b {c: -4}\nd: *b\n"
        #expect(String(decoding: try OpenAPIDocument.json(yaml: yaml), as: UTF8.self) == #"{"a":[1,2.5,true,null,"2020-01-02","text","3.1.0"],"b":{"c":-4},"d":{"c":-4}}"#)
        for (refused, line) in [("a: 1\nwhen: 2020-01-02\n", 2), ("a: 1\n? [1, 2]\n: 3\n", 2)] {
            #expect { try OpenAPIDocument.json(yaml: refused) } throws: { ($0 as? APIError)?.message.contains("line \(line)") == true }
        }
    }

    /// The kinds of annotation the server describes are the library's table, row for row:
    /// what the viewer draws and moves by.
    @Test func theAnnotationKindsAreTheLibrarysTable() async throws {
        let answer = try await ServerHarness().run { client in try await client.get("/api/annotation-kinds") }
        let rows = try #require(answer.json as? [[String: Any]])
        #expect(rows.map { $0["kind"] as? String } == AnnotationKindTraits.table.map(\.kind.rawValue))
        #expect(rows.filter { $0["creatable"] as? Bool == true }.map { $0["kind"] as? String } == AnnotationKind.creatable.map(\.rawValue))
        let ink = try #require(rows.first { $0["kind"] as? String == "Ink" }), polygon = try #require(rows.first { $0["kind"] as? String == "Polygon" })
        #expect(ink["geometry"] as? String == "inkPaths" && ink["border"] as? Bool == true && ink["icon"] as? Bool == false)
        #expect(polygon["geometry"] as? String == "vertices" && polygon["minimumVertices"] as? Int == 3 && polygon["interiorColor"] as? Bool == true)
        #expect(!rows.contains { $0["kind"] as? String == "Caret" })
    }

    /// HTTP as clients expect it: errors as problem documents (RFC 9457), 405 with `Allow`
    /// for a method a path does not answer (and 404 for a path no route has), `HEAD` wherever
    /// `GET` works, and `If-Match` on changes to an annotation (412 for a state that is gone;
    /// nothing changed then), whose dates a `PUT` that leaves them out keeps.
    @Test func theServerKeepsHTTPHabits() async throws {
        try await ServerHarness().run { client in
            let unauthorized = try await client.execute(uri: "/api/documents", method: .get)
            #expect(unauthorized.status == .unauthorized && unauthorized.headers[.wwwAuthenticate] == "Bearer")
            #expect(unauthorized.headers[.contentType] == "application/problem+json" && unauthorized.problemStatus == 401)
            let problem = try #require(unauthorized.json as? [String: Any])
            #expect(problem["type"] as? String == "about:blank" && problem["title"] as? String == "Unauthorized", "\(problem)")
            #expect(problem["code"] as? String == "unauthorized" && problem["detail"] as? String == unauthorized.errorMessage)

            for (method, path, allowed) in [(HTTPRequest.Method.delete, "/api/documents", "GET, HEAD"),
                                            (.post, documentPath("text.pdf") + "/pages/0/image", "GET, HEAD"),
                                            (.patch, documentPath("text.pdf") + "/annotations/x", "DELETE, GET, HEAD, PUT")] {
                let answer = try await client.execute(uri: path, method: method, headers: ServerHarness.authorization)
                #expect(answer.status == .methodNotAllowed && answer.headers[.allow] == allowed, "\(method) \(path): \(answer.status) \(answer.headers[.allow] ?? "")")
                #expect(answer.errorCode == "method-not-allowed" && answer.problemStatus == 405)
            }
            let nowhere = try await client.execute(uri: "/api/nowhere", method: .post, headers: ServerHarness.authorization)
            #expect(nowhere.status == .notFound && nowhere.errorCode == "not-found")

            let file = documentPath("text.pdf") + "/file"
            let head = try await client.execute(uri: file, method: .head, headers: ServerHarness.authorization)
            let get = try await client.get(file)
            #expect(head.status == .ok && head.data.isEmpty && head.headers[.contentType] == get.headers[.contentType])
            #expect(head.headers[.contentLength] == "\(get.data.count)" && head.headers[.eTag] == get.headers[.eTag], "\(head.headers)")
            #expect(try await client.execute(uri: "/api/documents", method: .head, headers: ServerHarness.authorization).status == .ok)

            let base = documentPath("text.pdf") + "/annotations"
            let note = Data(#"{"kind": "Text", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}, "contents": "first", "creationDate": "2020-01-02T03:04:05Z"}"#.utf8)
            let added = try await client.send(.post, base, body: note)
            let id = try #require((added.json as? [String: Any])?["id"] as? String)
            let firstTag = try #require(added.headers[.eTag])
            let read = try await client.get(base + "/" + id)
            #expect(read.status == .ok && read.headers[.eTag] == firstTag)

            func put(_ contents: String, ifMatch: String?) async throws -> ServerResponse {
                var headers = ServerHarness.authorization
                headers[.contentType] = "application/json"
                if let ifMatch { headers[.ifMatch] = ifMatch }
                let body = Data(#"{"kind": "Text", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}, "contents": "\#(contents)"}"#.utf8)
                return try await client.execute(uri: base + "/" + id, method: .put, headers: headers, body: body)
            }
            #expect(try await put("wrong tag", ifMatch: "\"0\"").status == .preconditionFailed)
            let changed = try await put("second", ifMatch: firstTag)
            #expect(changed.status == .ok, "\(changed.errorMessage ?? "")")
            let stored = try #require(changed.json as? [String: Any])
            #expect(stored["contents"] as? String == "second" && stored["creationDate"] as? String == "2020-01-02T03:04:05Z", "\(stored)")
            #expect(stored["modificationDate"] != nil)
            let secondTag = try #require(changed.headers[.eTag])
            #expect(secondTag != firstTag)
            // The first state is gone: a writer that read it loses, and changes nothing.
            let stale = try await put("lost update", ifMatch: firstTag)
            #expect(stale.status == .preconditionFailed && stale.errorCode == "precondition-failed")
            #expect((try await client.get(base + "/" + id).json as? [String: Any])?["contents"] as? String == "second")
            #expect(try await put("any state", ifMatch: "*").status == .ok)
            var remove = ServerHarness.authorization
            remove[.ifMatch] = secondTag
            #expect(try await client.execute(uri: base + "/" + id, method: .delete, headers: remove).status == .preconditionFailed)
            let current = try await client.get(base + "/" + id).headers[.eTag]
            #expect(current != nil && current != secondTag)
            remove[.ifMatch] = current
            #expect(try await client.execute(uri: base + "/" + id, method: .delete, headers: remove).status == .noContent)
            #expect(try await client.get(base + "/" + id).status == .notFound)
            #expect(try await put("gone", ifMatch: "*").status == .notFound)
        }
    }
}
