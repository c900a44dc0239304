import Foundation
import HTTPTypes
import Hummingbird
import RendererCollaboration
import RendererProvider
import RendererServer
import Testing
import TestSupport
import WSClient
import Logging

/// Collaboration layers on the real server: readers with signed tokens pushing changes and
/// fetching what changed, the conflict rules, idempotent retries, authorship from the token,
/// refusals, and a restart on the same database.
@Suite struct CollaborationServerTests {
    /// A signing key (kept by the test, as an application's backend keeps it) and the
    /// server's configuration that verifies with its public key.
    final class Keys: Sendable {
        /// Tokens live a day by default: in a full run on two cores a test can wait more than
        /// ten minutes between minting its tokens and using them.
        static let lifetime: TimeInterval = 86_400

        let privatePEM = CollaborationTokens.makePrivateKeyPEM()

        func token(_ user: String, document: String = "docs/annotations.pdf", layer: String = "review",
                   permissions: [String] = ["read-document", "write"], expires: TimeInterval = Keys.lifetime) async throws -> String {
            let issuer = try await CollaborationTokens(pem: privatePEM)
            let descriptor = try DocumentDescriptor(documentID: document, layer: layer)
            return try await issuer.issue(CollaborationClaims(
                user: user, descriptor: descriptor, permissions: permissions, expires: Date().addingTimeInterval(expires)))
        }

        /// Collaboration in `database`, verifying with this key's public half.
        func configuration(database: String, requestsPerSecond: Int = 1000) async throws -> CollaborationConfiguration {
            let verifier = try await CollaborationTokens(pem: try CollaborationTokens.publicKeyPEM(ofPrivateKey: privatePEM))
            return CollaborationConfiguration(tokens: verifier, database: database, changesPerRequest: 20, requestsPerSecond: requestsPerSecond)
        }
    }

    static func layerPath(_ document: String = "docs/annotations.pdf", _ layer: String = "review") -> String {
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))! }
        return "/api/collab/documents/\(encode(document))/layers/\(encode(layer))"
    }

    /// The id of the annotation a `change` message carries.
    static func annotationID(_ message: [String: Any]) -> String? {
        guard let stored = message["annotation"] as? [String: Any], let annotation = stored["annotation"] as? [String: Any] else { return nil }
        return annotation["id"] as? String
    }

    static func square(_ id: String = "", contents: String, author: String? = nil) -> Annotation {
        Annotation(id: id, kind: .square, pageIndex: 0, rect: PageRect(x: 100, y: 100, width: 80, height: 40), contents: contents, author: author)
    }

    static func push(_ client: ServerClient, token: String, _ changes: [LayerChange], layer: String = layerPath()) async throws -> (ServerResponse, PushResult?) {
        let body = try JSONEncoder().encode(LayerPush(changes: changes))
        let response = try await client.execute(
            uri: layer + "/changes", method: .post, headers: [.authorization: "Bearer \(token)", .contentType: "application/json"], body: body)
        return (response, try? Self.decoder.decode(PushResult.self, from: response.data))
    }

    static func snapshot(_ client: ServerClient, token: String, layer: String = layerPath()) async throws -> (revision: Int, annotations: [StoredAnnotation]) {
        let response = try await client.execute(uri: layer + "/annotations", method: .get, headers: [.authorization: "Bearer \(token)"])
        struct Snapshot: Decodable {
            var revision: Int
            var annotations: [StoredAnnotation]
        }
        let snapshot = try Self.decoder.decode(Snapshot.self, from: response.data)
        return (snapshot.revision, snapshot.annotations)
    }

    static func changes(_ client: ServerClient, token: String, since: Int, layer: String = layerPath()) async throws -> LayerChanges {
        let response = try await client.execute(uri: layer + "/changes?since=\(since)", method: .get, headers: [.authorization: "Bearer \(token)"])
        return try Self.decoder.decode(LayerChanges.self, from: response.data)
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    @Test func twoReadersConvergeAndAuthorshipComesFromTheToken() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let base = try await Fixtures.registry.open(.file(harness.docs + "/annotations.pdf"), renderer: .id("mupdf")).annotations()
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            // The layer starts from the PDF's own annotations, at revision 0.
            let start = try await Self.snapshot(client, token: alice)
            #expect(start.revision == 0 && Set(start.annotations.map(\.annotation.id)) == Set(base.map(\.id)))

            // Both push at once; Alice's claims to be Bob's, and the server ignores that.
            async let fromAlice = Self.push(client, token: alice, (0..<5).map {
                LayerChange(operationID: "a\($0)", action: .add, annotation: Self.square("alice-\($0)", contents: "A\($0)", author: "bob"))
            })
            async let fromBob = Self.push(client, token: bob, (0..<5).map {
                LayerChange(operationID: "b\($0)", action: .add, annotation: Self.square("bob-\($0)", contents: "B\($0)"))
            })
            let (a, b) = try await (fromAlice, fromBob)
            #expect(a.1?.results.allSatisfy { $0.status == .applied } == true && b.1?.results.allSatisfy { $0.status == .applied } == true)

            let seenByAlice = try await Self.snapshot(client, token: alice), seenByBob = try await Self.snapshot(client, token: bob)
            #expect(seenByAlice.revision == 10 && seenByAlice.revision == seenByBob.revision)
            #expect(seenByAlice.annotations == seenByBob.annotations)
            let authors = Dictionary(seenByAlice.annotations.map { ($0.annotation.id, $0.annotation.author) }, uniquingKeysWith: { a, _ in a })
            #expect((0..<5).allSatisfy { authors["alice-\($0)"] == "alice" && authors["bob-\($0)"] == "bob" })

            // What changed since the start, as a sync cycle asks.
            let changes = try await client.execute(uri: Self.layerPath() + "/changes?since=0", method: .get, headers: [.authorization: "Bearer \(bob)"])
            let delta = try Self.decoder.decode(LayerChanges.self, from: changes.data)
            #expect(delta.revision == 10 && delta.added.count == 10 && delta.updated.isEmpty && delta.deleted.isEmpty)
            #expect(changes.headers[.init("X-Collaboration-Protocol")!] == "1")
        }
    }

    @Test func conflictsRetriesAndOthersAnnotations() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let moderator = try await keys.token("mod", permissions: ["read-document", "annotations:edit:all", "annotations:delete:all"])
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let added = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-1", action: .add, annotation: Self.square("note", contents: "v1")),
            ]).1?.results.first?.annotation)

            // A retried push (same operation id) is applied once and answered the same.
            let retry = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-1", action: .add, annotation: Self.square("note", contents: "v1")),
            ]).1)
            #expect(retry.results.first?.status == .applied && retry.results.first?.revision == added.revision)
            #expect(retry.revision == added.revision)

            // Two edits on the same revision: the second is rejected with the current value.
            var edit = added.annotation
            edit.contents = "v2"
            let first = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-2", action: .modify, annotation: edit, baseRevision: added.revision),
            ]).1?.results.first)
            #expect(first.status == .applied)
            edit.contents = "v2-stale"
            let stale = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-3", action: .modify, annotation: edit, baseRevision: added.revision),
            ]).1?.results.first)
            #expect(stale.status == .rejected && stale.reason == .conflict && stale.current?.annotation.contents == "v2")

            // Bob may not change or delete Alice's note; a moderator may.
            let bobs = try #require(try await Self.push(client, token: bob, [
                LayerChange(operationID: "op-4", action: .modify, annotation: edit, baseRevision: first.revision),
                LayerChange(operationID: "op-5", action: .delete, annotationID: "note"),
            ]).1)
            #expect(bobs.results.map(\.reason) == [.notPermitted, .notPermitted])
            var moderated = edit
            moderated.contents = "moderated"
            let byModerator = try #require(try await Self.push(client, token: moderator, [
                LayerChange(operationID: "op-6", action: .modify, annotation: moderated, baseRevision: first.revision),
            ]).1?.results.first)
            #expect(byModerator.status == .applied && byModerator.annotation?.annotation.author == "alice")

            // A delete wins over a concurrent modify: the modify made on the old revision
            // after the delete is rejected as deleted.
            let deleted = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-7", action: .delete, annotationID: "note"),
                LayerChange(operationID: "op-8", action: .modify, annotation: edit, baseRevision: byModerator.revision),
            ]).1)
            #expect(deleted.results.map(\.status) == [.applied, .rejected] && deleted.results[1].reason == .deleted)

            // Malformed changes are rejected one by one; the others in the batch apply.
            var absurd = Self.square("far", contents: "x")
            absurd.rect = PageRect(x: 1e12, y: 0, width: 10, height: 10)
            var offPage = Self.square("off", contents: "x")
            offPage.pageIndex = 99
            let huge = Self.square("huge", contents: String(repeating: "x", count: 70_000))
            // What the API would refuse to write into the PDF, so that export would drop it: a
            // text style on a square, and a font size of zero.
            var styled = Self.square("styled", contents: "x")
            styled.textStyle = TextStyle(fontFamily: .helvetica, fontSize: 12, color: Color(red: 0, green: 0, blue: 0), alignment: .left)
            var tiny = Self.square("tiny", contents: "x")
            tiny.kind = .freeText
            tiny.textStyle = TextStyle(fontFamily: .helvetica, fontSize: 0, color: Color(red: 0, green: 0, blue: 0), alignment: .left)
            let mixed = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-9", action: .add, annotation: absurd),
                LayerChange(operationID: "op-10", action: .add, annotation: offPage),
                LayerChange(operationID: "op-11", action: .add, annotation: huge),
                LayerChange(operationID: "op-12", action: .add, annotation: Self.square("ok", contents: "fine")),
                LayerChange(operationID: "op-13", action: .modify, annotation: Self.square("missing", contents: "x"), baseRevision: 0),
                LayerChange(operationID: "op-13a", action: .add, annotation: styled),
                LayerChange(operationID: "op-13b", action: .add, annotation: tiny),
            ]).1)
            #expect(mixed.results.map(\.reason) == [.invalid, .invalid, .invalid, nil, .notFound, .invalid, .invalid])
            let since = try Self.decoder.decode(LayerChanges.self, from: try await client.execute(
                uri: Self.layerPath() + "/changes?since=\(added.revision)", method: .get, headers: [.authorization: "Bearer \(bob)"]).data)
            #expect(since.deleted == ["note"] && since.added.map(\.annotation.id) == ["ok"])

            // Replays of old changes, long after: each is answered with its first result and
            // none applies again (the deleted note stays deleted, the revision stays).
            let before = try await Self.snapshot(client, token: alice)
            let replayed = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "op-1", action: .add, annotation: Self.square("note", contents: "v1")),
                LayerChange(operationID: "op-2", action: .modify, annotation: Self.square("note", contents: "v2"), baseRevision: added.revision),
            ]).1)
            #expect(replayed.results == [try #require(retry.results.first), first])
            let after = try await Self.snapshot(client, token: alice)
            #expect(after.revision == before.revision && !after.annotations.contains { $0.annotation.id == "note" })

            // An operation id is 1 to 200 characters, as the schema says (counted as it counts:
            // 200 four-byte characters pass); outside that the push is 400 and applies nothing.
            let wide = String(repeating: "\u{1F600}", count: 200)
            #expect(try await Self.push(client, token: alice, [LayerChange(operationID: wide, action: .add, annotation: Self.square("wide", contents: "w"))]).0.status == .ok)
            for bad in ["", String(repeating: "a", count: 201)] {
                let refused = try await Self.push(client, token: alice, [LayerChange(operationID: bad, action: .add, annotation: Self.square("bad", contents: "b"))]).0
                #expect(refused.status == .badRequest, "\(bad.count) characters: \(refused.status)")
            }
            #expect(try await !Self.snapshot(client, token: alice).annotations.contains { $0.annotation.id == "bad" })
        }
    }

    @Test func tokensAreCheckedOnEveryCollaborationRoute() async throws {
        let (harness, keys, stranger) = (try ServerHarness(extra: ["annotations.pdf"]), Keys(), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let refused: [(String, HTTPResponse.Status)] = [
            (try await keys.token("alice", expires: -10), .unauthorized),
            (try await stranger.token("alice"), .unauthorized),
            (try await keys.token("alice", layer: "other"), .unauthorized),
            (try await keys.token("alice", document: "docs/text.pdf"), .unauthorized),
            (ServerHarness.token, .unauthorized),  // the server's own token is not a collaboration token
            (try await keys.token("alice", permissions: ["write"]), .forbidden),
        ]
        let reader = try await keys.token("reader", permissions: ["read-document"])
        let ghost = try await keys.token("alice", document: "docs/ghost.pdf")
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            for (token, status) in refused {
                for (method, uri) in [(HTTPRequest.Method.get, "/annotations"), (.get, "/changes"), (.post, "/changes")] {
                    let response = try await client.execute(
                        uri: Self.layerPath() + uri, method: method, headers: [.authorization: "Bearer \(token)"], body: Data(#"{"changes": []}"#.utf8))
                    #expect(response.status == status, "\(method) \(uri)")
                    #expect(response.errorCode != nil && response.errorMessage?.contains(token) == false)
                }
            }
            let none = try await client.execute(uri: Self.layerPath() + "/annotations", method: .get)
            #expect(none.status == .unauthorized)
            // A document the server does not serve is 404, even with a token signed for it.
            let unknown = try await client.execute(
                uri: Self.layerPath("docs/ghost.pdf") + "/annotations", method: .get, headers: [.authorization: "Bearer \(ghost)"])
            #expect(unknown.status == .notFound && unknown.errorCode == "not-found")
            // A reader may read, not write.
            let readOnly = try #require(try await Self.push(client, token: reader, [
                LayerChange(operationID: "r1", action: .add, annotation: Self.square(contents: "no")),
            ]).1)
            #expect(readOnly.results.first?.reason == .notPermitted)
            // Too many changes in one push.
            let tooMany = try await Self.push(client, token: reader, (0..<21).map {
                LayerChange(operationID: "t\($0)", action: .add, annotation: Self.square(contents: "\($0)"))
            })
            #expect(tooMany.0.status == .contentTooLarge)
        }
    }

    /// The collaboration routes generated from the OpenAPI document check the token before
    /// they read anything of a request: a stranger's malformed or oversized body is 401, not a
    /// parse error. With a good token, a body that is not JSON or not a push, one past the
    /// limit, a revision that is not one and an `Accept` no answer meets are each refused
    /// with their status and a problem document, and nothing reaches the layer; the answers
    /// say the protocol's version, are not kept, and carry their media types' parameters.
    @Test func theGeneratedRoutesLetInOnlyTokensAndStoreNothingBad() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice")
        let stranger = try await Keys().token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration; $0.bodyLimit = 4096 }) { client in
            let before = try await Self.snapshot(client, token: alice)
            let changes = Self.layerPath() + "/changes"
            let json: HTTPFields = [.contentType: "application/json"]
            for token in [nil, stranger] {
                var headers = json
                if let token { headers[.authorization] = "Bearer \(token)" }
                for body in [Data("{not json".utf8), Data(repeating: 0x20, count: 8192)] {
                    let refused = try await client.execute(uri: changes, method: .post, headers: headers, body: body)
                    #expect(refused.status == .unauthorized && refused.errorCode == "unauthorized", "\(refused.status)")
                }
            }
            var headers = json
            headers[.authorization] = "Bearer \(alice)"
            let cases: [(HTTPRequest.Method, String, HTTPFields, Data, HTTPResponse.Status)] = [
                (.post, changes, headers, Data("{not json".utf8), .badRequest),
                (.post, changes, headers, Data(#"{"changes": "all"}"#.utf8), .badRequest),
                (.post, changes, headers, Data(#"{"changes": [{"operationID": "", "action": "add"}]}"#.utf8), .badRequest),
                (.post, changes, headers, Data(repeating: 0x20, count: 8192), .contentTooLarge),
                (.post, changes, [.authorization: "Bearer \(alice)", .contentType: "text/plain"], Data(#"{"changes": []}"#.utf8), .unsupportedMediaType),
                (.get, changes + "?since=abc", headers, Data(), .badRequest),
                (.get, changes + "?since=-1", headers, Data(), .badRequest),
                (.get, Self.layerPath() + "/annotations", [.authorization: "Bearer \(alice)", .accept: "text/html"], Data(), .notAcceptable),
            ]
            for (method, uri, headers, body, status) in cases {
                let refused = try await client.execute(uri: uri, method: method, headers: headers, body: body)
                #expect(refused.status == status && refused.headers[.contentType] == "application/problem+json", "\(method) \(uri): \(refused.status)")
                #expect(refused.errorMessage?.contains(harness.folder) == false)
            }
            let named = try await client.execute(uri: changes + "?since=abc", method: .get, headers: headers)
            #expect(named.errorMessage?.hasPrefix("since must be a whole number") == true, "\(named.errorMessage ?? "")")
            let after = try await Self.snapshot(client, token: alice)
            #expect(after.revision == before.revision && after.annotations.count == before.annotations.count)

            let answers = [("/annotations", "application/json"), ("/annotations.xfdf", "application/vnd.adobe.xfdf; charset=utf-8"),
                           ("/annotations.jsonld", #"application/ld+json; profile="http://www.w3.org/ns/anno.jsonld""#)]
            for (route, type) in answers {
                let answer = try await client.execute(uri: Self.layerPath() + route, method: .get, headers: [.authorization: "Bearer \(alice)"])
                #expect(answer.status == .ok && answer.headers[.contentType]?.hasPrefix(type) == true, "\(route): \(answer.headers[.contentType] ?? "")")
                #expect(answer.headers[.init("X-Collaboration-Protocol")!] == String(collaborationProtocolVersion) && answer.headers[.cacheControl] == "no-store", "\(route)")
            }
        }
    }

    @Test func layersKeepAnyNameAndSurviveARestart() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let strange = #"it's "the" layer/; DROP TABLE layer;--"#
        let alice = try await keys.token("alice", layer: strange)
        let plain = try await keys.token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let result = try await Self.push(client, token: alice, [
                LayerChange(operationID: "s1", action: .add, annotation: Self.square("kept", contents: "across restarts")),
            ], layer: Self.layerPath("docs/annotations.pdf", strange))
            #expect(result.1?.results.first?.status == .applied)
            // The other layer over the same document is independent.
            #expect(try await Self.snapshot(client, token: plain).annotations.allSatisfy { $0.annotation.id != "kept" })
        }
        // A new server on the same database has every acknowledged change.
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let snapshot = try await Self.snapshot(client, token: alice, layer: Self.layerPath("docs/annotations.pdf", strange))
            #expect(snapshot.revision == 1 && snapshot.annotations.contains { $0.annotation.id == "kept" && $0.annotation.author == "alice" })
        }
    }

    @Test func layersGoOutAsXFDFWebAnnotationsAndPDF() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice", permissions: ["read-document", "write", "download", "annotations:delete:all"])
        let noDownload = try await keys.token("bob")
        let base = try await Fixtures.registry.open(.file(harness.docs + "/annotations.pdf"), renderer: .id("mupdf")).annotations()
        let dropped = try #require(base.first { $0.kind.isCreatable })
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let pushed = try #require(try await Self.push(client, token: alice, [
                LayerChange(operationID: "x1", action: .add, annotation: Self.square("layer-note", contents: "only in the layer")),
                LayerChange(operationID: "x2", action: .delete, annotationID: dropped.id),
            ]).1)
            #expect(pushed.results.allSatisfy { $0.status == .applied })
            let headers: HTTPFields = [.authorization: "Bearer \(alice)"]

            let xfdf = String(decoding: try await client.execute(uri: Self.layerPath() + "/annotations.xfdf", method: .get, headers: headers).data, as: UTF8.self)
            #expect(xfdf.contains("<square") && xfdf.contains("only in the layer"))

            let jsonld = try await client.execute(uri: Self.layerPath() + "/annotations.jsonld", method: .get, headers: headers)
            #expect(jsonld.headers[.contentType]?.hasPrefix("application/ld+json") == true)
            let collection = try #require(jsonld.json as? [String: Any])
            #expect(collection["@context"] as? String == "http://www.w3.org/ns/anno.jsonld" && collection["type"] as? String == "AnnotationCollection")
            let items = try #require((collection["first"] as? [String: Any])?["items"] as? [[String: Any]])
            let note = try #require(items.first { $0["id"] as? String == "urn:renderer-provider:annotation:layer-note" })
            #expect((note["body"] as? [String: Any])?["value"] as? String == "only in the layer")
            #expect((note["creator"] as? [String: Any])?["nickname"] as? String == "alice")
            let selector = (note["target"] as? [String: Any])?["selector"] as? [String: Any]
            #expect(selector?["value"] as? String == "page=1&viewrect=100.00,100.00,80.00,40.00")

            for engine in ["mupdf", "poppler"] {
                let pdf = try await client.execute(uri: Self.layerPath() + "/document.pdf?renderer=\(engine)", method: .get, headers: headers)
                #expect(pdf.status == .ok && pdf.headers[.contentType] == "application/pdf")
                let path = harness.folder + "/layer-\(engine).pdf"
                try pdf.data.write(to: URL(fileURLWithPath: path))
                #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
                // The other engine reads the layer in the written PDF.
                let other = engine == "mupdf" ? "poppler" : "mupdf"
                let written = try await Fixtures.registry.open(.file(path), renderer: .id(other)).annotations()
                #expect(written.contains { $0.contents == "only in the layer" }, "\(engine)")
                #expect(!written.contains { $0.id == dropped.id && $0.kind == dropped.kind }, "\(engine)")
            }
            let refused = try await client.execute(uri: Self.layerPath() + "/document.pdf", method: .get, headers: [.authorization: "Bearer \(noDownload)"])
            #expect(refused.status == .forbidden)
            // The served file itself is untouched: layers never write into the PDF.
            #expect(try await Fixtures.registry.open(.file(harness.docs + "/annotations.pdf"), renderer: .id("mupdf")).annotations().count == base.count)
        }
    }

    @Test func aClientPastItsRateIsAnswered429() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite", requestsPerSecond: 1)
        // The rate's clock moves only when the test moves it, so that no allowance comes back
        // while the requests are on their way, however slow the machine.
        let now = Locked(ContinuousClock.now)
        collaboration.clock = { now.withLock { $0 } }
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            // Ten at once, with one request a second allowed: one gets through.
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await client.execute(uri: Self.layerPath() + "/changes", method: .get, headers: [.authorization: "Bearer \(alice)"]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 9, "\(statuses)")
            #expect(statuses.allSatisfy { $0 == .ok || $0 == .tooManyRequests })
            // Another user is not held up by Alice, and Alice gets through again later.
            #expect(try await client.execute(uri: Self.layerPath() + "/changes", method: .get, headers: [.authorization: "Bearer \(bob)"]).status == .ok)
            now.withLock { $0 += .seconds(1) }
            #expect(try await client.execute(uri: Self.layerPath() + "/changes", method: .get, headers: [.authorization: "Bearer \(alice)"]).status == .ok)
        }
    }

    /// The messages a listener got, as their JSON texts.
    /// The messages a listener got, as they came and parsed (each once).
    final class Inbox: Sendable {
        private let received = Locked<(texts: [String], messages: [[String: Any]])>(([], []))
        /// Why the socket could not be opened or ended with an error, once it has.
        let failure = Locked<(any Error)?>(nil)
        var texts: [String] { received.withLock { $0.texts } }
        var messages: [[String: Any]] { received.withLock { $0.messages } }
        func add(_ text: String) {
            let message = (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
            received.withLock { $0.texts.append(text); $0.messages.append(message) }
        }
    }

    /// A WebSocket client of a layer that keeps every message it gets.
    final class Listener: Sendable {
        let inbox = Inbox()
        let outgoing: AsyncStream<String>.Continuation
        private let incoming: AsyncStream<String>
        let task: Task<Void, any Error>

        init(port: Int, token: String, layer: String = CollaborationServerTests.layerPath()) {
            let (outgoing, continuation) = AsyncStream.makeStream(of: String.self)
            self.incoming = outgoing
            self.outgoing = continuation
            let inbox = self.inbox
            task = Task {
                do {
                    // A socket that ends (the server closed it) fails every later wait at
                    // once, with the close code and reason, rather than at the deadline.
                    let close = try await Self.listen(port: port, token: token, layer: layer, to: inbox, sending: outgoing)
                    inbox.failure.withLock { $0 = SocketClosed(frame: close) }
                } catch {
                    inbox.failure.withLock { $0 = error }
                    throw error
                }
            }
        }

        /// The socket ended, closed with `frame` (nil when the connection just ended).
        struct SocketClosed: Error, CustomStringConvertible {
            let frame: WebSocketCloseFrame?
            var description: String {
                guard let frame else { return "the socket ended without a close frame" }
                return "the server closed the socket: \(frame.closeCode), \(frame.reason ?? "no reason")"
            }
        }

        private static func listen(
            port: Int, token: String, layer: String, to inbox: Inbox, sending outgoing: AsyncStream<String>
        ) async throws -> WebSocketCloseFrame? {
            try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)\(layer)/events?access_token=\(token)", configuration: .init(maxFrameSize: collaborationFrameSize),
                logger: Logger(label: "listener")
            ) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            guard case .text(let text) = message else { continue }
                            inbox.add(text)
                        }
                    }
                    group.addTask {
                        for await text in outgoing { try await outbound.write(.text(text)) }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }

        /// Waits until a message satisfies `match` (at most `seconds`); returns it, or
        /// nil at the deadline. Throws why the socket failed, when it has failed before. The
        /// deadline is long: in a full test run on two cores, this task and the one reading
        /// the socket wait their turn behind every other test's work, once for minutes.
        func wait(seconds: Double = 600, for match: @escaping ([String: Any]) -> Bool) async throws -> [String: Any]? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let found = await messages().first(where: match) { return found }
                if let failure = inbox.failure.withLock({ $0 }) { throw failure }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }

        /// The messages got, parsed.
        func messages() async -> [[String: Any]] {
            inbox.messages
        }

        func types() async -> [String] { await messages().compactMap { $0["type"] as? String } }

        func close() {
            outgoing.finish()
            task.cancel()
        }
    }

    @Test(arguments: ["mupdf", "poppler"])
    func webSocketsCarryEachChangeToTheSameLayerOnly(engine: String) async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let carol = try await keys.token("carol", layer: "other")
        // The XFDF goes out and comes back in through `engine`.
        try await harness.run(configure: { $0.collaboration = collaboration; $0.renderer = .id(engine) }) { client in
            let a = Listener(port: client.port, token: alice), b = Listener(port: client.port, token: bob)
            let c = Listener(port: client.port, token: carol, layer: Self.layerPath("docs/annotations.pdf", "other"))
            defer { [a, b, c].forEach { $0.close() } }
            for listener in [a, b, c] { #expect(try await listener.wait { $0["type"] as? String == "hello" } != nil) }

            // A push over REST reaches both listeners of the layer, with the author from the token.
            _ = try await Self.push(client, token: alice, [
                LayerChange(operationID: "w1", action: .add, annotation: Self.square("n1", contents: "over REST", author: "mallory")),
            ])
            for listener in [a, b] {
                let event = try #require(try await listener.wait { ($0["annotation"] as? [String: Any])?["annotation"] != nil })
                let annotation = (event["annotation"] as? [String: Any])?["annotation"] as? [String: Any]
                #expect(event["type"] as? String == "change" && event["action"] as? String == "add" && event["user"] as? String == "alice")
                #expect(annotation?["id"] as? String == "n1" && annotation?["author"] as? String == "alice")
            }

            // Bob adds one by an XFDF command: Bob gets the results, Alice the change.
            let xfdf = String(decoding: try await client.execute(
                uri: Self.layerPath() + "/annotations.xfdf", method: .get, headers: [.authorization: "Bearer \(alice)"]).data, as: UTF8.self)
            let square = try #require(xfdf.firstMatch(of: /<square[^>]*name="n1"[\s\S]*?<\/square>/).map { String($0.0) })
            let command = "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add>" + square.replacingOccurrences(of: "name=\"n1\"", with: "name=\"x1\"") + "</add></xfdf>"
            b.outgoing.yield(command)
            let results = try #require(try await b.wait { $0["type"] as? String == "results" })
            #expect(((results["results"] as? [[String: Any]])?.first?["status"] as? String) == "applied")
            let fromBob = try #require(try await a.wait { Self.annotationID($0) == "x1" })
            #expect(fromBob["user"] as? String == "bob")
            #expect(await b.messages().filter { $0["type"] as? String == "change" }.count == 1)  // not its own change back
            // The copy made through XFDF is the original, in another identity.
            let stored = try await Self.snapshot(client, token: alice).annotations.map(\.annotation)
            let original = try #require(stored.first { $0.id == "n1" }), copy = try #require(stored.first { $0.id == "x1" })
            #expect(copy.kind == original.kind && copy.contents == original.contents && copy.author == "bob")
            #expect(abs(copy.rect.minX - original.rect.minX) < 0.01 && abs(copy.rect.minY - original.rect.minY) < 0.01)
            #expect(abs(copy.rect.size.width - original.rect.size.width) < 0.01 && abs(copy.rect.size.height - original.rect.size.height) < 0.01)

            // A malformed command is answered with an error, and the socket stays open.
            b.outgoing.yield("<xfdf><add><square")
            #expect(try await b.wait { $0["type"] as? String == "error" } != nil)
            _ = try await Self.push(client, token: alice, [
                LayerChange(operationID: "w2", action: .delete, annotationID: "n1"),
            ])
            #expect(try await b.wait { $0["action"] as? String == "delete" } != nil)

            // The other layer's listener heard none of it.
            try await Task.sleep(for: .milliseconds(200))
            #expect(await c.types() == ["hello"])
            let snapshot = try await Self.snapshot(client, token: alice)
            #expect(snapshot.annotations.contains { $0.annotation.id == "x1" && $0.annotation.author == "bob" })

            // No token, no upgrade.
            await #expect(throws: (any Error).self) {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(client.port)\(Self.layerPath())/events", logger: Logger(label: "x")) { _, _, _ in }
            }
            let plain = try await client.execute(uri: Self.layerPath() + "/events", method: .get, headers: [.authorization: "Bearer \(alice)"])
            #expect(plain.status == .upgradeRequired)
        }
    }

    /// A client that stops reading its WebSocket while large changes keep coming: the
    /// reader beside it gets every change, and the server, once the stalled client is its
    /// backlog behind, closes that connection rather than keep it (and its writes) for ever.
    @Test func aClientThatNeverReadsIsDisconnectedAndHoldsUpNoOne() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        collaboration.eventBacklog = 16
        let configured = collaboration
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        try await harness.run(configure: { $0.collaboration = configured }) { client in
            try await Self.stallOneClient(client, stalled: alice, reader: bob, backlog: configured.eventBacklog)
        }
    }

    private static func stallOneClient(_ client: ServerClient, stalled stalledToken: String, reader readerToken: String, backlog: Int) async throws {
        let changes = 160, filler = String(repeating: "ink ", count: 15_000)  // each change's message is over 60 KB
        let stalled = try RawHTTPConnection(port: client.port, timeout: 120, receiveBuffer: 4096)
        try stalled.get(layerPath() + "/events?access_token=\(stalledToken)", headers: [
            "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "c3RhbGxlZC1jbGllbnQtMDE=", "Sec-WebSocket-Version": "13",
        ])
        let greeting = await stalled.read { String(decoding: $0, as: UTF8.self).contains("hello") }
        #expect(String(decoding: greeting, as: UTF8.self).hasPrefix("HTTP/1.1 101"))
        let reader = Listener(port: client.port, token: readerToken)
        defer { reader.close() }
        #expect(try await reader.wait { $0["type"] as? String == "hello" } != nil)

        // From now on the stalled client reads nothing. The reader reads each batch before
        // the next is sent, so that it is never a backlog behind, however slow the machine.
        for batch in stride(from: 0, to: changes, by: 10) {
            let (response, _) = try await push(client, token: stalledToken, (batch..<batch + 10).map {
                LayerChange(operationID: "big-\($0)", action: .add, annotation: square("big-\($0)", contents: "\($0) \(filler)"))
            })
            #expect(response.status == .ok)
            #expect(try await reader.wait { $0["revision"] as? Int == batch + 10 } != nil)
        }
        #expect(await reader.messages().filter { $0["type"] as? String == "change" }.count == changes)

        // The server has closed its end while the client still reads nothing.
        var state = stalled.serverEndState(serverPort: client.port)
        for _ in 0..<300 where state == "ESTABLISHED" {
            try await Task.sleep(for: .milliseconds(100))
            state = stalled.serverEndState(serverPort: client.port)
        }
        #expect(state != "ESTABLISHED", "the server kept the stalled connection")
        // What the stalled client still had coming ends with that close, well short of
        // every change.
        let rest = await stalled.read { _ in false }
        #expect(stalled.closedByServer)
        let received = String(decoding: greeting + rest, as: UTF8.self).ranges(of: #""type":"change""#).count
        #expect(received < changes - backlog, "\(received) changes reached the stalled client")
    }

    @Test func messagesFollowTheVersionedSchema() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice")
        let validator = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("validate_schema.py").path
        let folder = harness.folder
        @Sendable func check(_ definition: String, _ documents: [Data], valid: Bool = true) async throws {
            let paths = try documents.enumerated().map { index, data in
                let path = folder + "/\(definition)-\(index)-\(UUID().uuidString).json"
                try data.write(to: URL(fileURLWithPath: path))
                return path
            }
            let result = try await Tool.run("python3", [validator, definition] + paths)
            #expect((result.status == 0) == valid, "\(definition): \(result.text)\(result.stderr)")
        }
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let listener = Listener(port: client.port, token: alice)
            defer { listener.close() }
            #expect(try await listener.wait { $0["type"] as? String == "hello" } != nil)
            let changes = [
                LayerChange(operationID: "v1", action: .add, annotation: Self.square("s1", contents: "schema")),
                LayerChange(operationID: "v2", action: .modify, annotation: Self.square("none", contents: "x"), baseRevision: 0),
            ]
            try await check("push", [try JSONEncoder().encode(LayerPush(changes: changes))])
            let pushed = try await client.execute(
                uri: Self.layerPath() + "/changes", method: .post, headers: [.authorization: "Bearer \(alice)", .contentType: "application/json"],
                body: try JSONEncoder().encode(LayerPush(changes: changes)))
            try await check("pushResult", [pushed.data])
            let headers: HTTPFields = [.authorization: "Bearer \(alice)"]
            try await check("layerSnapshot", [try await client.execute(uri: Self.layerPath() + "/annotations", method: .get, headers: headers).data])
            try await check("layerChanges", [try await client.execute(uri: Self.layerPath() + "/changes?since=0", method: .get, headers: headers).data])
            try await check("error", [try await client.execute(uri: Self.layerPath() + "/annotations", method: .get).data])
            // The socket heard the applied change, and answers a malformed command with an error.
            #expect(try await listener.wait { $0["type"] as? String == "change" } != nil)
            listener.outgoing.yield("not xfdf")
            #expect(try await listener.wait { $0["type"] as? String == "error" } != nil)
            let events = listener.inbox.texts
            #expect(events.count == 3)  // hello, change, error
            try await check("event", events.map { Data($0.utf8) })
            // The validator refuses what breaks the schema: an applied result without its revision.
            try await check("pushResult", [Data(#"{"revision": 1, "results": [{"operationID": "x", "status": "applied"}]}"#.utf8)], valid: false)
        }
    }
}
