import Foundation
import RendererServer
import RendererSignatures
import Testing
import TestSupport

/// The OpenAPI document the server serves is its contract: every route it answers is in it,
/// with its method, and nothing else is; the signature verdicts' codes are the library's; it
/// is a valid OpenAPI 3.1 document (checked by the
/// independent `openapi-spec-validator`). `Tests/Contract/run_schemathesis.py` then holds the
/// real server's answers to it.
@Suite struct ServerContractTests {
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
        let documented = Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
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
}
