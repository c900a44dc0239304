import Foundation
import Hummingbird
import RendererIsolation
import RendererProvider
import RendererProviderXFDF
import RendererServer
import Testing
import TestSupport

/// What a reader changes through the server (annotations saved into the file, bookmarks,
/// the viewing state) and the limits that keep one client from hurting the others.
@Suite struct ServerEditingTests {
    static let highlight = Data(#"""
        {"kind": "Highlight", "pageIndex": 1, "contents": "from the API",
         "rect": {"origin": {"x": 172, "y": 63}, "size": {"width": 33, "height": 12}},
         "quads": [{"upperLeft": {"x": 172, "y": 63}, "upperRight": {"x": 205, "y": 63},
                    "lowerLeft": {"x": 172, "y": 75}, "lowerRight": {"x": 205, "y": 75}}],
         "color": {"red": 1, "green": 1, "blue": 0, "alpha": 1}}
        """#.utf8)

    /// `POST .../image-stamps`: a picture sent as base64 becomes a stamp saved into the file,
    /// drawn by `mutool draw`; a body that is not a picture, a picture declaring more pixels
    /// than the server takes, bytes that are not base64, another kind and a body over the
    /// limit are JSON errors that leave the file as it was.
    @Test func imageStampsArriveAsPicturesAndBadOnesAreRefused() async throws {
        let harness = try ServerHarness()
        let file = "\(harness.docs)/text.pdf"
        let png = try StampPictures.png(StampPictures.quadrants())
        var declared = try StampPictures.jpeg(StampPictures.quadrants())
        let frame = try #require(declared.indices.first { declared[$0] == 0xFF && declared[$0 + 1] == 0xC0 })
        declared.replaceSubrange(frame + 5..<frame + 9, with: [0x13, 0x88, 0x13, 0x88])  // 5,000 x 5,000
        let huge = declared
        @Sendable func body(_ image: Data, kind: String = "Stamp") -> Data {
            Data(#"{"annotation": {"kind": "\#(kind)", "pageIndex": 0, "contents": "photo", "rect": {"origin": {"x": 72, "y": 72}, "size": {"width": 200, "height": 200}}}, "image": "\#(image.base64EncodedString())"}"#.utf8)
        }
        try await harness.run(configure: { $0.bodyLimit = 64 << 10 }) { client in
            let path = documentPath("text.pdf") + "/image-stamps"
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            let refusals: [(Data, HTTPResponse.Status)] = [
                (body(Data("not a picture".utf8)), .unprocessableContent), (body(huge), .unprocessableContent), (body(png, kind: "Square"), .unprocessableContent),
                (Data(#"{"annotation": {"kind": "Stamp", "pageIndex": 0, "rect": {"origin": {"x": 0, "y": 0}, "size": {"width": 9, "height": 9}}}, "image": "%%%"}"#.utf8), .badRequest),
                (body(Data(repeating: 0x41, count: 100 << 10)), .contentTooLarge),
            ]
            for (request, status) in refusals {
                let answer = try await client.send(.post, path, body: request)
                #expect(answer.status == status && answer.errorCode != nil, "\(answer.status): \(String(decoding: answer.data.prefix(300), as: UTF8.self))")
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)

            let created = try await client.send(.post, path, body: body(png))
            #expect(created.status == .created, "\(String(decoding: created.data, as: UTF8.self))")
            #expect((created.json as? [String: Any])?["kind"] as? String == "Stamp")
            let folder = URL(fileURLWithPath: harness.folder)
            let drawn = try await EngineTools.draw(backend: "mupdf", file: file, page: 1, dpi: 72, in: folder)
            for sample in StampPictures.samples(in: StampPictures.fitted) where sample.color != nil {
                #expect(drawn.color(x: Int(sample.point.x), y: Int(sample.point.y)) == sample.color!, "at \(sample.point)")
            }
        }
    }

    @Test func annotationsAreSavedIntoTheFile() async throws {
        let harness = try ServerHarness()
        let file = "\(harness.docs)/text.pdf"
        try await harness.run { client in
            let base = documentPath("text.pdf") + "/annotations"
            let imageBefore = try await client.get(documentPath("text.pdf") + "/pages/1/image?dpi=36")
            let created = try await client.send(.post, base, body: Self.highlight)
            #expect(created.status == .created)
            let id = try #require((created.json as? [String: Any])?["id"] as? String)
            // Location names what was made, by a path the API answers PUT and DELETE on.
            #expect(created.headers[.location] == documentPath("text.pdf") + "/annotations/" + id, "\(created.headers)")

            // Poppler, not the server's MuPDF, reads the saved file.
            var saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler")).annotations(pageAt: 1)
            let highlight = try #require(saved.first { $0.kind == .highlight })
            #expect(highlight.contents == "from the API")
            #expect(abs(highlight.quads[0].upperLeft.x - 172) < 0.5 && abs(highlight.quads[0].lowerRight.y - 75) < 0.5)
            // The page image is drawn anew from the changed file: a new ETag.
            let imageAfter = try await client.get(documentPath("text.pdf") + "/pages/1/image?dpi=36")
            #expect(imageAfter.headers[.eTag] != imageBefore.headers[.eTag])

            var edited = try #require(created.json as? [String: Any])
            edited["contents"] = "edited"
            let updated = try await client.send(.put, base + "/" + id, body: try JSONSerialization.data(withJSONObject: edited))
            #expect(updated.status == .ok)
            saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler")).annotations(pageAt: 1)
            #expect(saved.first { $0.kind == .highlight }?.contents == "edited")

            let listed = try #require(try await client.get(base + "?page=1").json as? [[String: Any]])
            #expect(listed.contains { $0["id"] as? String == id })
            let xfdf = try await client.get(documentPath("text.pdf") + "/annotations.xfdf")
            #expect(xfdf.headers[.contentType]?.hasPrefix("application/vnd.adobe.xfdf") == true)
            #expect(String(decoding: xfdf.data, as: UTF8.self).contains("<highlight"))

            let removed = try await client.execute(uri: base + "/" + id, method: .delete, headers: ServerHarness.authorization)
            #expect(removed.status == .noContent)
            saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler")).annotations(pageAt: 1)
            #expect(!saved.contains { $0.kind == .highlight })

            // XFDF goes back in through the API.
            let imported = try await client.send(.post, documentPath("text.pdf") + "/annotations.xfdf", body: xfdf.data, type: "application/vnd.adobe.xfdf")
            #expect(imported.status == .ok)
            saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler")).annotations(pageAt: 1)
            #expect(saved.first { $0.kind == .highlight }?.contents == "edited")
        }
    }

    @Test func badAnnotationRequestsChangeNothing() async throws {
        let harness = try ServerHarness()
        let file = "\(harness.docs)/text.pdf"
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        try await harness.run(configure: { $0.bodyLimit = 2048 }) { client in
            let base = documentPath("text.pdf") + "/annotations"
            let bodies: [(Data, HTTPResponse.Status)] = [
                (Data("not json".utf8), .badRequest),
                (Data(#"{"kind": "Highlight"}"#.utf8), .badRequest),
                (Data(#"{"kind": "Highlight", "pageIndex": 7, "rect": {"origin": {"x": 0, "y": 0}, "size": {"width": 5, "height": 5}}}"#.utf8), .unprocessableContent),
                (Data(#"{"kind": "Highlight", "pageIndex": "one", "rect": {}}"#.utf8), .badRequest),
                (Data(repeating: 0x20, count: 4096), .contentTooLarge),
            ]
            for (body, status) in bodies {
                let response = try await client.send(.post, base, body: body)
                #expect(response.status == status, "\(String(decoding: body.prefix(60), as: UTF8.self)): \(response.status)")
                #expect(response.errorCode != nil)
            }
            // An annotation the document does not hold: 404, as the contract says.
            let missing = try await client.send(.put, base + "/no-such-annotation", body: Self.highlight)
            #expect(missing.status == .notFound && missing.errorCode == "not-found", "\(missing.status)")
            let notRemoved = try await client.execute(uri: base + "/no-such-annotation", method: .delete, headers: ServerHarness.authorization)
            #expect(notRemoved.status == .notFound && notRemoved.errorCode == "not-found", "\(notRemoved.status)")
            let xfdf = try await client.send(.post, documentPath("text.pdf") + "/annotations.xfdf", body: Data("<xfdf><annots><broken".utf8), type: "application/vnd.adobe.xfdf")
            #expect(xfdf.status == .unprocessableContent)
            #expect(try await client.get("/api/health").status == .ok)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
    }

    /// An annotation a stranger's file writes inside the page's `/Annots` (no object of its
    /// own) is listed, but a change or removal of it is 422 with the JSON error, and the file
    /// stays as it was.
    @Test func anAnnotationWithoutAnObjectIsRefusedAndTheFileKept() async throws {
        let harness = try ServerHarness(extra: ["annotation-objects.pdf"])
        let file = "\(harness.docs)/annotation-objects.pdf"
        let original = try Data(contentsOf: URL(fileURLWithPath: file))
        try await harness.run { client in
            let base = documentPath("annotation-objects.pdf") + "/annotations"
            let listed = try #require(try await client.get(base).json as? [[String: Any]])
            var square = try #require(listed.first { $0["id"] as? String == "p1-Square-1" })
            square["contents"] = "changed"
            let changed = try await client.send(.put, base + "/p1-Square-1", body: try JSONSerialization.data(withJSONObject: square))
            #expect(changed.status == .unprocessableContent && changed.errorCode == "invalid-argument", "\(changed.status)")
            let removed = try await client.execute(uri: base + "/p1-Square-1", method: .delete, headers: ServerHarness.authorization)
            #expect(removed.status == .unprocessableContent && removed.errorCode == "invalid-argument", "\(removed.status)")
            #expect(try await client.get("/api/health").status == .ok)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == original)
    }

    @Test func aReadOnlyServerRefusesEdits() async throws {
        let harness = try ServerHarness()
        let original = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        try await harness.run(configure: { $0.allowsEditing = false }) { client in
            let response = try await client.send(.post, documentPath("text.pdf") + "/annotations", body: Self.highlight)
            #expect(response.status == .forbidden)
            let details = try #require(try await client.get(documentPath("text.pdf")).json as? [String: Any])
            #expect(details["editable"] as? Bool == false)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf")) == original)
    }

    @Test func bookmarksAndViewingStateLiveInTheSession() async throws {
        try await ServerHarness().run { client in
            let base = documentPath("long.pdf")
            let added = try await client.send(.post, base + "/bookmarks", body: Data(#"{"pageIndex": 41, "title": "Forty-two"}"#.utf8))
            #expect(added.status == .created)
            let id = try #require((added.json as? [String: Any])?["id"] as? String)
            #expect(added.headers[.location] == base + "/bookmarks/" + id, "\(added.headers)")
            let listed = try #require(try await client.get(base + "/bookmarks").json as? [[String: Any]])
            #expect(listed.map { $0["title"] as? String } == ["Forty-two"] && listed.first?["pageIndex"] as? Int == 41)
            #expect(try await client.send(.post, base + "/bookmarks", body: Data(#"{"pageIndex": 100, "title": "x"}"#.utf8)).status == .notFound)

            let state = Data(#"{"pageIndex": 12, "zoom": 1.5, "scrollOffset": {"x": 0, "y": 140}}"#.utf8)
            #expect(try await client.send(.put, base + "/state", body: state).status == .ok)
            let stored = try #require(try await client.get(base + "/state").json as? [String: Any])
            #expect(stored["pageIndex"] as? Int == 12 && stored["zoom"] as? Double == 1.5)
            #expect(try await client.send(.put, base + "/state", body: Data(#"{"pageIndex": 1, "zoom": 0, "scrollOffset": {"x": 0, "y": 0}}"#.utf8)).status == .badRequest)

            let removed = try await client.execute(uri: base + "/bookmarks/" + id, method: .delete, headers: ServerHarness.authorization)
            #expect(removed.status == .noContent)
            let again = try await client.execute(uri: base + "/bookmarks/" + id, method: .delete, headers: ServerHarness.authorization)
            #expect(again.status == .notFound)
        }
    }

    /// What the OpenAPI document calls optional may be left out: a viewing state of a page
    /// alone (100%, from the page's top-left corner), a colour without alpha (opaque).
    @Test func fieldsTheContractCallsOptionalMayBeLeftOut() async throws {
        try await ServerHarness().run { client in
            let base = documentPath("long.pdf")
            #expect(try await client.send(.put, base + "/state", body: Data(#"{"pageIndex": 3}"#.utf8)).status == .ok)
            let stored = try #require(try await client.get(base + "/state").json as? [String: Any])
            #expect(stored["pageIndex"] as? Int == 3 && stored["zoom"] as? Double == 1, "\(stored)")
            #expect(try await client.send(.put, base + "/state", body: Data(#"{"zoom": 2}"#.utf8)).status == .badRequest, "the page is required")
            let square = Data(#"{"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}, "color": {"red": 1, "green": 0, "blue": 0}}"#.utf8)
            let added = try await client.send(.post, base + "/annotations", body: square)
            #expect(added.status == .created, "\(added.errorMessage ?? "")")
            let color = (added.json as? [String: Any])?["color"] as? [String: Any]
            #expect(color?["alpha"] as? Double == 1 && color?["red"] as? Double == 1, "\(String(describing: color))")
        }
    }

    /// 150,000 curves: about 25 s to draw at 300 dpi on an idle machine, so a render is
    /// surely still in flight when a busy machine gets round to checking.
    static let slowCurves = 150_000

    @Test func aFullQueueAnswers429AndOthersAreServedAfter() async throws {
        let harness = try ServerHarness(slowCurves: Self.slowCurves)
        try await harness.run(configure: { $0.queueLimit = 1 }) { client in
            let port = client.port
            let slow = try RawHTTPConnection(port: port, timeout: 60)
            try slow.get(documentPath("slow.pdf") + "/pages/0/image?dpi=300", headers: ["Authorization": "Bearer \(ServerHarness.token)"])
            try await Self.waitUntil("the slow render is queued") { try await Self.queued(client) == 1 }
            let refused = try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=20")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.errorCode == "busy" && refused.headers[.retryAfter] == "1")
            // The client going away cancels its render, and the queue frees at once.
            slow.close()
            try await Self.waitUntil("the cancelled render leaves the queue") { try await Self.queued(client) == 0 }
            // Stopped, not finished: a finished page would be in the cache.
            let health = try await client.get("/api/health").json as? [String: Any]
            #expect(health?["cachedBytes"] as? Int == 0, "the render went on after its client left: \(String(describing: health))")
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=20").status == .ok)
        }
    }

    @Test func pagesPastTheLimitsAreRefused() async throws {
        let harness = try ServerHarness(slowCurves: Self.slowCurves)
        try await harness.run(configure: {
            $0.timeLimit = .milliseconds(300)
            $0.maximumPixelCount = 100_000
        }) { client in
            // Past the time limit: the server was too slow, the request was fine.
            let slow = try await client.get(documentPath("slow.pdf") + "/pages/0/image?dpi=20")
            #expect(slow.status == .serviceUnavailable && slow.errorCode == "limit-exceeded")
            // Past the pixel limit: the request asked too much.
            let large = try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=72")
            #expect(large.status == .unprocessableContent && large.errorCode == "limit-exceeded")
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=20").status == .ok)
        }
    }

    @Test func aClientLeavingMidSearchStopsIt() async throws {
        try await ServerHarness().run { client in
            let port = client.port
            let connection = try RawHTTPConnection(port: port, timeout: 60)
            try connection.get(documentPath("long.pdf") + "/search?q=Page", headers: ["Authorization": "Bearer \(ServerHarness.token)"])
            let start = await connection.read { String(decoding: $0, as: UTF8.self).contains("\"pageIndex\":0") }
            #expect(String(decoding: start, as: UTF8.self).contains("200 OK"))
            connection.close()
            #expect(try await client.get("/api/health").status == .ok)
            #expect(try await client.get(documentPath("long.pdf") + "/search?q=Page%2099").status == .ok)
        }
    }

    private static func queued(_ client: ServerClient) async throws -> Int {
        ((try await client.get("/api/health").json as? [String: Any])?["queued"] as? Int) ?? -1
    }

    static func waitUntil(_ what: String, seconds: Double = 120, _ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out waiting until \(what)")
    }
}

/// `--isolate`: every engine document in an engine process (hostapp's `worker` command),
/// through a registry of `IsolatedRenderer`s; the server does not know.
@Suite struct IsolatedServerTests {
    /// The hostapp SwiftPM built next to this test bundle, whose `worker` command serves
    /// isolated documents.
    static let hostapp = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hostapp").path

    /// Both engines, each in engine processes started as `hostapp worker extra...`.
    static func registry(_ extra: [String] = []) -> RendererRegistry {
        RendererRegistry(IsolatedRenderer.isolating(Fixtures.registry.renderers, with: IsolationOptions(executable: hostapp, arguments: ["worker"] + extra)))
    }

    /// Everything works isolated as in process: reading, the reader's state, annotation
    /// edits saved into the file, comparison; a damaged file is a JSON error.
    @Test func isolatedEnginesServeEverything() async throws {
        let harness = try ServerHarness()
        let file = harness.docs + "/text.pdf"
        try await harness.run(registry: Self.registry()) { client in
            let details = try #require(try await client.get(documentPath("text.pdf")).json as? [String: Any])
            #expect(details["editable"] as? Bool == true)
            for engine in ["mupdf", "poppler"] {
                let image = try await client.get(documentPath("text.pdf") + "/pages/1/image?dpi=72&renderer=\(engine)")
                #expect(image.status == .ok && image.headers[.init("X-Renderer")!] == engine)
                let size = try await pngSize(image.data)
                #expect(size.width == 612 && size.height == 792)
            }
            let layer = try #require(try await client.get(documentPath("text.pdf") + "/pages/1/text").json as? [String: Any])
            #expect((layer["lines"] as? [Any])?.isEmpty == false)
            let search = String(decoding: try await client.get(documentPath("text.pdf") + "/search?q=fixture").data, as: UTF8.self)
            #expect(search.contains(#""pageIndex":1"#) && search.contains(#""hits":1"#))
            #expect(try await client.get(documentPath("text.pdf") + "/outline").status == .ok)
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/links").status == .ok)
            let bookmark = try await client.send(.post, documentPath("text.pdf") + "/bookmarks", body: Data(#"{"pageIndex": 2, "title": "Three"}"#.utf8))
            #expect(bookmark.status == .created)
            #expect((try await client.get(documentPath("text.pdf") + "/bookmarks").json as? [Any])?.count == 1)
            let state = Data(#"{"pageIndex": 2, "zoom": 2, "scrollOffset": {"x": 0, "y": 10}}"#.utf8)
            #expect(try await client.send(.put, documentPath("text.pdf") + "/state", body: state).status == .ok)
            #expect((try await client.get(documentPath("text.pdf") + "/state").json as? [String: Any])?["pageIndex"] as? Int == 2)

            let edit = try await client.send(.post, documentPath("text.pdf") + "/annotations", body: ServerEditingTests.highlight)
            #expect(edit.status == .created)
            // Poppler, in this process, reads what the isolated engine saved.
            let saved = try await Fixtures.registry.open(.file(file), renderer: .id("poppler")).annotations(pageAt: 1)
            #expect(saved.contains { $0.kind == .highlight && $0.contents == "from the API" })
            let listed = try #require(try await client.get(documentPath("text.pdf") + "/annotations").json as? [[String: Any]])
            #expect(listed.contains { $0["contents"] as? String == "from the API" })
            let comparison = try #require(try await client.get(documentPath("text.pdf") + "/pages/0/compare?dpi=50").json as? [String: Any])
            #expect((comparison["page"] as? [String: Any])?["passed"] as? Bool == true)
            let damaged = try await client.get(documentPath("truncated.pdf") + "/pages/0/image")
            #expect(damaged.status == .unprocessableContent && damaged.errorMessage?.contains(harness.folder) == false)
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    /// An engine process that crashes costs the request that made it crash, answered with a
    /// JSON error; the next request is served by a new engine process, and the server goes on.
    /// The metrics count the crash and the restart. (The engine process crashes on any call
    /// about page 3, so only requests about one page are made: a page image needs every
    /// page's size.)
    @Test func aCrashCostsOneRequest() async throws {
        let harness = try ServerHarness()
        try await harness.run(registry: Self.registry(["--test-crash-on-page", "3"])) { client in
            func counted() async throws -> [String: Double] {
                let samples = try await ServerMetricsTests.parsed(try await client.get("/api/metrics").data, in: harness.folder)
                return Dictionary(samples.map { ($0.name + ($0.labels["code"].map { "/" + $0 } ?? ""), $0.value) }, uniquingKeysWith: +)
            }
            #expect(try await client.get(documentPath("text.pdf") + "/pages/1/text?renderer=mupdf").status == .ok)
            let before = try await counted()
            let crashed = try await client.get(documentPath("text.pdf") + "/pages/2/text?renderer=mupdf")
            #expect(crashed.status == .internalServerError)
            #expect(((crashed.json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String == "engine-crashed")
            let next = try await client.get(documentPath("text.pdf") + "/pages/1/text?renderer=mupdf")
            #expect(next.status == .ok)
            #expect(String(decoding: next.data, as: UTF8.self).contains("fixture"))
            #expect(try await client.get("/api/health").status == .ok)
            // Engine processes are counted for the whole test process: at least this one more.
            let after = try await counted()
            #expect(after["hostapp_engine_errors_total/engine-crashed"] == 1)
            #expect((after["hostapp_engine_restarts_total"] ?? 0) >= (before["hostapp_engine_restarts_total"] ?? 0) + 1, "\(before) \(after)")
            #expect((after["hostapp_engine_processes_started_total"] ?? 0) >= (before["hostapp_engine_processes_started_total"] ?? 0) + 1)
        }
    }
}
