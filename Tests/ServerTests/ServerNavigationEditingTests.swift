import Foundation
import Hummingbird
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// The outline and links written through the server: saved into the file as the engines
/// and pypdf read it, concurrent writers each acknowledged and each in the file, and bad
/// requests answered with JSON errors that leave the file as it was.
@Suite struct ServerNavigationEditingTests {
    @Test func anOutlineIsWrittenAndBadOnesChangeNothing() async throws {
        let harness = try ServerHarness()
        let file = "\(harness.docs)/text.pdf"
        try await harness.run { client in
            let path = documentPath("text.pdf") + "/outline"
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let refusals: [(String, HTTPResponse.Status)] = [
                ("{", .badRequest),
                (#"[{"destination": null}]"#, .badRequest),
                (#"[{"title": "x", "destination": {"kind": "page", "index": 7}}]"#, .notFound),
                (#"[{"title": "x", "destination": {"kind": "uri", "uri": "java script:"}}]"#, .unprocessableContent),
                (#"[{"title": "x", "color": {"red": 9, "green": 0, "blue": 0, "alpha": 1}}]"#, .unprocessableContent),
            ]
            for (body, status) in refusals {
                let answer = try await client.send(.put, path, body: Data(body.utf8))
                #expect(answer.status == status && answer.errorCode != nil, "\(body): \(answer.status) \(String(decoding: answer.data.prefix(300), as: UTF8.self))")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
            let body = #"[{"title": "Second page", "isBold": true, "destination": {"kind": "page", "index": 1, "point": {"x": 0, "y": 100}}}, {"title": "Web", "destination": {"kind": "uri", "uri": "https://example.org/"}}]"#
            let written = try await client.send(.put, path, body: Data(body.utf8))
            #expect(written.status == .ok, "\(String(decoding: written.data, as: UTF8.self))")
            let answer = try #require(written.json as? [String: Any])
            #expect((answer["outline"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Second page", "Web"])
            #expect((answer["report"] as? [String: Any])?["targetsDropped"] as? Int == 0)
            let read = try #require(try await client.get(path).json as? [[String: Any]])
            #expect(read.first?["isBold"] as? Bool == true)
        }
        let saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler"))
        #expect(try saved.outline().map(\.title) == ["Second page", "Web"])
    }

    /// Twelve clients add a link each at once: every one acknowledged is in the saved file,
    /// and nothing else is. A removal takes the one over its area.
    @Test func concurrentLinksAreEachAcknowledgedAndSaved() async throws {
        let harness = try ServerHarness()
        let file = "\(harness.docs)/text.pdf"
        try await harness.run { client in
            let path = documentPath("text.pdf") + "/pages/0/links"
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        let body = #"{"area": {"origin": {"x": 10, "y": \#(10 + index * 30)}, "size": {"width": 100, "height": 20}}, "destination": {"kind": "uri", "uri": "https://example.org/\#(index)"}}"#
                        return try await client.send(.post, path, body: Data(body.utf8)).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let acknowledged = statuses.filter { $0 == .created }.count
            #expect(statuses.allSatisfy { $0 == .created || $0 == .tooManyRequests || $0 == .conflict }, "\(statuses)")
            #expect(acknowledged > 0)
            let inFile = try await Fixtures.registry.open(.file(file), renderer: .id("mupdf")).links(pageAt: 0)
            #expect(inFile.count == acknowledged)
            // Removal: by area; none there, no area, an area that is not numbers.
            let removed = try await client.send(.delete, path + "?rect=10,10,100,20", body: Data())
            if inFile.contains(where: { abs($0.area.minY - 10) < 0.5 }) {
                #expect(removed.status == .ok && (removed.json as? [String: Any])?["removed"] as? Int == 1)
            } else {
                #expect(removed.status == .badRequest)
            }
            for (query, status) in [("?rect=500,500,1,1", HTTPResponse.Status.unprocessableContent), ("", .badRequest), ("?rect=a,b,c,d", .badRequest), ("?rect=1,2,3", .badRequest)] {
                let refused = try await client.send(.delete, path + query, body: Data())
                #expect(refused.status == status && refused.errorCode != nil, "\(query): \(refused.status)")
            }
            let bad = try await client.send(.post, path, body: Data(#"{"area": {"origin": {"x": 0, "y": 0}, "size": {"width": -5, "height": 1}}, "destination": {"kind": "uri", "uri": "https://x.org/"}}"#.utf8))
            #expect(bad.status == .unprocessableContent)
            let past = try await client.send(.post, documentPath("text.pdf") + "/pages/9/links", body: Data(#"{"area": {"origin": {"x": 0, "y": 0}, "size": {"width": 5, "height": 1}}, "destination": {"kind": "uri", "uri": "https://x.org/"}}"#.utf8))
            #expect(past.status == .notFound)
        }
    }

    @Test func aReadOnlyServerWritesNoOutlineAndNoLink() async throws {
        let harness = try ServerHarness()
        let original = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        try await harness.run(configure: { $0.allowsEditing = false }) { client in
            let outline = try await client.send(.put, documentPath("text.pdf") + "/outline", body: Data("[]".utf8))
            #expect(outline.status == .forbidden)
            let link = #"{"area": {"origin": {"x": 0, "y": 0}, "size": {"width": 5, "height": 5}}, "destination": {"kind": "uri", "uri": "https://x.org/"}}"#
            let added = try await client.send(.post, documentPath("text.pdf") + "/pages/0/links", body: Data(link.utf8))
            #expect(added.status == .forbidden)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf")) == original)
    }
}

/// `GET .../signatures`: the verdicts against the anchors the server was given.
@Suite struct ServerSignatureTests {
    @Test func verdictsFollowTheServersTrustAnchors() async throws {
        let harness = try ServerHarness(extra: ["signed.pdf"])
        let path = documentPath("signed.pdf") + "/signatures"
        try await harness.run { client in
            let verdicts = try #require(try await client.get(path).json as? [[String: Any]])
            #expect(verdicts.map { $0["verdict"] as? String } == ["unknown", "unknown"])
            let codes = (verdicts.first?["reasons"] as? [[String: Any]])?.map { $0["code"] as? String }
            #expect(codes == ["intact", "noTrustAnchor", "coversWholeFile"])
            let unsigned = try #require(try await client.get(documentPath("text.pdf") + "/signatures").json as? [Any])
            #expect(unsigned.isEmpty)
        }
        let pem = try await SignerCertificate.extract(from: Fixtures.path("signed.pdf"), into: URL(fileURLWithPath: harness.folder))
        let anchors = TrustAnchors(pem: try Data(contentsOf: pem))
        try await harness.run(configure: { $0.trustAnchors = anchors }) { client in
            let verdicts = try #require(try await client.get(path).json as? [[String: Any]])
            #expect(verdicts.map { $0["verdict"] as? String } == ["valid", "unknown"])
            #expect((verdicts.first?["signer"] as? String)?.contains("CN=Fixture Signer") == true)
        }
    }
}
