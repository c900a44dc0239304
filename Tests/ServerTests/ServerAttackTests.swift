import Foundation
import HTTPTypes
import Logging
import RendererCollaboration
import RendererCollaborationServer
import RendererProvider
import RendererServer
import Testing
import TestSupport
import WSClient

/// What an unfriendly client tries against the real server (a free loopback port, real
/// engines, a real SQLite layer store): XML that names files of the server, changes that
/// name one annotation and carry another, WebSocket messages past the REST rules, forged
/// times and audiences in tokens, requests from another site, hidden and non-PDF files,
/// byte ranges. Each attack is checked for what it must not reach: a file's bytes in an
/// answer or a saved file, another reader's note, a row in the database.
@Suite struct ServerAttackTests {
    typealias Keys = CollaborationServerTests.Keys

    /// A file outside the served folder whose bytes must never come back, and XML documents
    /// that name it in the ways XML can: an external entity in the body, an external DTD,
    /// a parameter entity.
    struct Secret {
        let path: String
        let text = "SECRET-" + UUID().uuidString

        init(in folder: String) throws {
            path = folder + "/secret.txt"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        /// XFDF documents that would read the file if external entities were loaded; `body` is
        /// what goes inside `<xfdf>`, with `&secret;` where the entity is expanded. With
        /// `utf16`, the first also in UTF-16, where a byte search for <!DOCTYPE finds nothing.
        func hostileXFDF(_ body: String, utf16: Bool = true) -> [Data] {
            let root = #"<xfdf xmlns="http://ns.adobe.com/xfdf/">"# + body + "</xfdf>"
            let entity = #"<!DOCTYPE xfdf [<!ENTITY secret SYSTEM "file://\#(path)">]>"#
            let documents = [
                #"<?xml version="1.0"?>"# + entity + root,
                #"<?xml version="1.0"?><!DOCTYPE xfdf SYSTEM "file://\#(path)">"# + root.replacingOccurrences(of: "&secret;", with: "x"),
                #"<!DOCTYPE xfdf [<!ENTITY % p SYSTEM "file://\#(path)"> %p;]>"# + root.replacingOccurrences(of: "&secret;", with: "x"),
            ].map { Data($0.utf8) }
            guard utf16 else { return documents }
            let wide = (#"<?xml version="1.0" encoding="UTF-16"?>"# + entity + root).utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
            return documents + [Data(wide)]
        }
    }

    @Test func xfdfOverRESTNeverReadsAFileOfTheServer() async throws {
        let harness = try ServerHarness()
        let secret = try Secret(in: harness.folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        try await harness.run { client in
            let note = #"<annots><text page="0" rect="10,10,30,30" name="x1"><contents>&secret;</contents></text></annots>"#
            for xfdf in secret.hostileXFDF(note) {
                let answer = try await client.send(.post, documentPath("text.pdf") + "/annotations.xfdf", body: xfdf, type: "application/xml")
                #expect(answer.status == .unprocessableContent && answer.errorCode == "invalid-argument", "\(answer.status) \(answer.errorMessage ?? "")")
                #expect(!String(decoding: answer.data, as: UTF8.self).contains(secret.text))
            }
            let listed = try await client.get(documentPath("text.pdf") + "/annotations")
            #expect(listed.status == .ok && !String(decoding: listed.data, as: UTF8.self).contains(secret.text))
            // A well-formed XFDF without a DTD still imports.
            let plain = #"<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="10,10,30,30" name="x1"><contents>fine</contents></text></annots></xfdf>"#
            let imported = try await client.send(.post, documentPath("text.pdf") + "/annotations.xfdf", body: Data(plain.utf8), type: "application/vnd.adobe.xfdf")
            #expect(imported.status == .ok && ((imported.json as? [String: Any])?["imported"] as? [Any])?.count == 1, "\(imported.status) \(imported.errorMessage ?? "")")
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/text.pdf"))
        #expect(after.count > before.count && after.range(of: Data(secret.text.utf8)) == nil)
    }

    /// Replies a stranger might send: to an annotation that is not there, to one of another
    /// page, to itself, with a review state no model has, or an answer too long to name
    /// anything. Each is a JSON 400 and the file is left as it was; a good reply is taken, and
    /// removing its root takes it too.
    @Test func repliesThatAnswerNothingAreRefused() async throws {
        let harness = try ServerHarness()
        let file = harness.docs + "/text.pdf"
        try await harness.run { client in
            let path = documentPath("text.pdf") + "/annotations"
            func note(page: Int, _ extra: String) -> Data {
                Data(#"{"kind": "Text", "pageIndex": \#(page), "rect": {"origin": {"x": 10, "y": 10}, "size": {"width": 20, "height": 20}}\#(extra)}"#.utf8)
            }
            let root = try #require(try await client.send(.post, path, body: note(page: 0, "")).json as? [String: Any])
            let rootID = try #require(root["id"] as? String)
            let before = try Data(contentsOf: URL(fileURLWithPath: file))
            // A review state the schema does not have is a bad request; replies to nothing,
            // values the library refuses.
            for (extra, status) in [
                (#", "inReplyTo": "nowhere""#, HTTPResponse.Status.unprocessableContent), (#", "id": "self-1", "inReplyTo": "self-1""#, .unprocessableContent),
                (#", "inReplyTo": "\#(rootID)", "reviewState": "Bogus""#, .badRequest),
                (#", "inReplyTo": "\#(String(repeating: "x", count: 100_000))""#, .unprocessableContent),
            ] {
                let refused = try await client.send(.post, path, body: note(page: 0, extra))
                #expect(refused.status == status && refused.errorCode != nil, "\(extra.prefix(60)): \(refused.status)")
            }
            let otherPage = try await client.send(.post, path, body: note(page: 1, #", "inReplyTo": "\#(rootID)""#))
            #expect(otherPage.status == .unprocessableContent && otherPage.errorMessage?.contains(harness.folder) == false)
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before, "nothing written")

            let reply = try await client.send(.post, path, body: note(page: 0, #", "inReplyTo": "\#(rootID)", "reviewState": "Accepted""#))
            #expect(reply.status == .created && (reply.json as? [String: Any])?["inReplyTo"] as? String == rootID)
            #expect(try await client.execute(uri: path + "/" + rootID, method: .delete, headers: ServerHarness.authorization).status == .noContent)
            #expect((try await client.get(path).json as? [Any])?.isEmpty == true, "the reply went with its root")
        }
    }

    @Test func xfdfOverTheLayerWebSocketNeverReadsAFileOfTheServer() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let secret = try Secret(in: harness.folder)
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let socket = CollaborationServerTests.Listener(port: client.port, token: alice)
            defer { socket.close() }
            #expect(try await socket.wait { $0["type"] as? String == "hello" } != nil)
            let note = #"<add><square page="0" rect="100,100,180,140" name="w1"><contents>&secret;</contents></square></add>"#
            let attacks = secret.hostileXFDF(note, utf16: false)
            for xfdf in attacks { socket.outgoing.yield(String(decoding: xfdf, as: UTF8.self)) }
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, await socket.messages().filter({ $0["type"] as? String == "error" }).count < attacks.count {
                try await Task.sleep(for: .milliseconds(20))
            }
            let errors = await socket.messages().filter { $0["type"] as? String == "error" }
            #expect(errors.count == attacks.count, "\(socket.inbox.texts)")
            #expect(!socket.inbox.texts.joined().contains(secret.text))
            let snapshot = try await CollaborationServerTests.snapshot(client, token: alice)
            #expect(!snapshot.annotations.contains { $0.annotation.id == "w1" })
            let xfdf = try await client.execute(
                uri: CollaborationServerTests.layerPath() + "/annotations.xfdf", method: .get, headers: [.authorization: "Bearer \(alice)"])
            #expect(!String(decoding: xfdf.data, as: UTF8.self).contains(secret.text))
        }
    }

    @Test func aChangeNamesOneAnnotationAndThePDFsOwnNeedTheRightToEveryones() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (alice, bob) = (try await keys.token("alice"), try await keys.token("bob"))
        let base = try await Fixtures.registry.open(.file(harness.docs + "/annotations.pdf"), renderer: .id("mupdf")).annotations()
        let own = try #require(base.first { $0.kind.isCreatable && $0.author != nil && !$0.author!.isEmpty })
        // A reader whose id is the PDF annotation's author field.
        let impostor = try await keys.token(own.author!)
        let push = CollaborationServerTests.push
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let added = try #require(try await push(client, alice, [
                LayerChange(operationID: "a1", action: .add, annotation: CollaborationServerTests.square("alice-note", contents: "alice's")),
            ], CollaborationServerTests.layerPath()).1?.results.first)
            _ = try await push(client, bob, [
                LayerChange(operationID: "b1", action: .add, annotation: CollaborationServerTests.square("bob-note", contents: "bob's")),
            ], CollaborationServerTests.layerPath())

            // Alice names her own note and carries Bob's: rejected, and Bob's note is as it was.
            var forged = CollaborationServerTests.square("bob-note", contents: "overwritten by alice")
            forged.author = "alice"
            let trick = try #require(try await push(client, alice, [
                LayerChange(operationID: "a2", action: .modify, annotation: forged, annotationID: "alice-note", baseRevision: added.revision),
                LayerChange(operationID: "a3", action: .delete, annotation: forged, annotationID: "alice-note"),
                LayerChange(operationID: "a4", action: .add, annotation: CollaborationServerTests.square("bob-note", contents: "x"), annotationID: "alice-new"),
            ], CollaborationServerTests.layerPath()).1)
            #expect(trick.results.map(\.reason) == [.invalid, .invalid, .invalid], "\(trick.results)")
            let layer = try await CollaborationServerTests.snapshot(client, token: bob).annotations.map(\.annotation)
            #expect(layer.first { $0.id == "bob-note" }?.contents == "bob's" && layer.first { $0.id == "bob-note" }?.author == "bob")
            #expect(layer.first { $0.id == "alice-note" }?.contents == "alice's" && !layer.contains { $0.id == "alice-new" })

            // The PDF's own annotation is nobody's in the layer, whoever's name it carries.
            var changed = own
            changed.contents = "changed without the right"
            (changed.creationDate, changed.modificationDate) = (nil, nil)  // the test's push encodes no dates
            for (index, (token, user)) in [(alice, "alice"), (impostor, own.author!)].enumerated() {
                let (response, answer) = try await push(client, token, [
                    LayerChange(operationID: "own-m-\(index)", action: .modify, annotation: changed, baseRevision: 100),
                    LayerChange(operationID: "own-d-\(index)", action: .delete, annotationID: own.id),
                ], CollaborationServerTests.layerPath())
                #expect(answer?.results.map(\.reason) == [.notPermitted, .notPermitted], "\(user): \(response.status) \(response.errorMessage ?? "")")
            }
            let kept = try await CollaborationServerTests.snapshot(client, token: bob).annotations.first { $0.annotation.id == own.id }
            #expect(kept?.annotation.contents == own.contents)
        }
        // Refused changes left no rows: only the two applied adds are kept for replay.
        #expect(try await Self.operationRows(harness.folder + "/layers.sqlite") == 2)
    }

    /// The rows of the layer store's table of applied operations, read with Python's sqlite3.
    static func operationRows(_ database: String) async throws -> Int {
        let counted = try await Tool.run("python3", ["-c", "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('select count(*) from operation').fetchone()[0])", database])
        return Int(counted.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func theLayerWebSocketKeepsEveryRESTRule() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite", requestsPerSecond: 5)
        collaboration.changesPerRequest = 20
        // The clock held still: no allowance comes back during the test, however slow the machine.
        let held = ContinuousClock.now
        collaboration.clock = { held }
        let (alice, reader) = (try await keys.token("alice"), try await keys.token("reader", permissions: ["read-document"]))
        let bob = try await keys.token("bob")  // reads the layer: Alice's requests per second go to her messages
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let writer = CollaborationServerTests.Listener(port: client.port, token: alice)
            let readOnly = CollaborationServerTests.Listener(port: client.port, token: reader)
            defer { [writer, readOnly].forEach { $0.close() } }
            for socket in [writer, readOnly] { #expect(try await socket.wait { $0["type"] as? String == "hello" } != nil) }
            func squares(_ prefix: String, _ count: Int) -> String {
                "<xfdf xmlns=\"http://ns.adobe.com/xfdf/\"><add>"
                    + (0..<count).map { #"<square page="0" rect="100,100,180,140" name="\#(prefix)\#($0)"><contents>n</contents></square>"# }.joined()
                    + "</add></xfdf>"
            }
            // More changes in one message than a push may hold: none applied.
            writer.outgoing.yield(squares("big", 21))
            let tooMany = try #require(try await writer.wait { $0["type"] as? String == "error" })
            #expect((tooMany["message"] as? String)?.contains("at most 20") == true)
            // A reader without write is refused before the message is read.
            readOnly.outgoing.yield(squares("ro", 1))
            #expect(try await readOnly.wait { $0["type"] as? String == "error" } != nil)
            // Twenty messages at once from one user: past the rate, answered with errors. Of
            // Alice's five a second, her socket's upgrade took one and the message too big one.
            for index in 0..<20 { writer.outgoing.yield(squares("r\(index)-", 1)) }
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline, await writer.messages().filter({ ["results", "error"].contains($0["type"] as? String) }).count < 21 {
                try await Task.sleep(for: .milliseconds(20))
            }
            let answers = await writer.messages().filter { ["results", "error"].contains($0["type"] as? String) }.dropFirst()
            let limited = answers.filter { ($0["message"] as? String)?.contains("requests a second") == true }
            #expect(answers.count == 20 && limited.count == 17, "\(answers)")
            let layer = try await CollaborationServerTests.snapshot(client, token: bob).annotations.map(\.annotation.id)
            #expect(!layer.contains { $0.hasPrefix("big") || $0.hasPrefix("ro") })
            #expect(layer.filter { $0.hasPrefix("r") && $0.contains("-") }.count == answers.filter { $0["type"] as? String == "results" }.count)
        }
    }

    /// A socket's upgrade counts once against its user's requests per second: at one a
    /// second the socket opens (it was checked twice, and counted twice, so that it closed
    /// before its hello), and its first message is past the rate.
    @Test func aSocketCountsOnceAgainstTheRate() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite", requestsPerSecond: 1)
        // The clock held still: no allowance comes back during the test, however slow the machine.
        let held = ContinuousClock.now
        collaboration.clock = { held }
        let alice = try await keys.token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let socket = CollaborationServerTests.Listener(port: client.port, token: alice)
            defer { socket.close() }
            #expect(try await socket.wait { $0["type"] as? String == "hello" } != nil)
            socket.outgoing.yield(#"<xfdf xmlns="http://ns.adobe.com/xfdf/"><add><square page="0" rect="1,1,9,9" name="s1"/></add></xfdf>"#)
            let refused = try #require(try await socket.wait { $0["type"] as? String == "error" })
            #expect((refused["message"] as? String)?.contains("requests a second") == true, "\(refused)")
        }
    }

    /// A refused WebSocket upgrade is answered as the HTTP routes answer: 401 without a token,
    /// with a forged one or one for another layer, 403 with a token that does not grant
    /// reading the document, each with the JSON error body, and the connection closed; a good
    /// token still upgrades (101).
    @Test func aRefusedUpgradeIsAnsweredWithTheJSONError() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice")
        let otherLayer = try await keys.token("alice", layer: "other")
        let noReading = try await keys.token("alice", permissions: ["write"])
        // A loaded machine may hold the server's event loop up for long: no deadline of the server's may close the connection first.
        try await harness.run(configure: { $0.collaboration = collaboration; $0.requestHeadTimeout = .seconds(120); $0.idleTimeout = .seconds(120) }) { client in
            func upgrade(_ token: String?) async throws -> String {
                let connection = try RawHTTPConnection(port: client.port)
                defer { connection.close() }
                var headers = ["Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="]
                if let token { headers["Authorization"] = "Bearer \(token)" }
                try connection.get(CollaborationServerTests.layerPath() + "/events", headers: headers)
                let answer = await connection.read { data in
                    let text = String(decoding: data, as: UTF8.self)
                    return text.hasPrefix("HTTP/1.1 101") ? text.contains("\r\n\r\n") : text.hasSuffix("about:blank\"}")
                }
                return String(decoding: answer, as: UTF8.self)
            }
            for (token, status, code) in [(nil, "401 Unauthorized", "unauthorized"), (alice + "x", "401 Unauthorized", "unauthorized"),
                                          (otherLayer, "401 Unauthorized", "unauthorized"), (noReading, "403 Forbidden", "forbidden")] {
                let answer = try await upgrade(token)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)\r\n"), "\(answer)")
                #expect(answer.lowercased().contains("content-type: application/problem+json") && answer.lowercased().contains("connection: close"), "\(answer)")
                let body = try #require(answer.components(separatedBy: "\r\n\r\n").last)
                let json = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                #expect((json?["error"] as? [String: String])?["code"] == code && json?["code"] as? String == code, "\(body)")
                #expect(!body.contains(harness.folder), "no path of the server")
            }
            #expect(try await upgrade(alice).hasPrefix("HTTP/1.1 101"))
        }
    }

    /// A server that was not asked to collaborate mounts no collaboration route: a token its
    /// collaborators would hold, good or not, finds neither the layer's routes nor its socket
    /// (404, the JSON error), and no layer database is made.
    @Test func aServerThatDoesNotCollaborateServesNoLayer() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let alice = try await keys.token("alice")
        try await harness.run(configure: { $0.requestHeadTimeout = .seconds(120); $0.idleTimeout = .seconds(120) }) { client in
            for route in ["/annotations", "/changes", "/annotations.xfdf", "/source.pdf", "/events"] {
                let answer = try await client.execute(
                    uri: CollaborationServerTests.layerPath() + route, method: .get, headers: [.authorization: "Bearer \(alice)"])
                #expect(answer.status == .notFound, "\(route): \(answer.status)")
                #expect(answer.errorCode == "not-found", "\(route)")
            }
            let push = try await client.execute(
                uri: CollaborationServerTests.layerPath() + "/changes", method: .post, headers: [.authorization: "Bearer \(alice)"],
                body: Data(#"{"changes": []}"#.utf8))
            #expect(push.status == .notFound)
            let connection = try RawHTTPConnection(port: client.port)
            defer { connection.close() }
            let headers = ["Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13",
                           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==", "Authorization": "Bearer \(alice)"]
            try connection.get(CollaborationServerTests.layerPath() + "/events", headers: headers)
            let answer = String(decoding: await connection.read { String(decoding: $0, as: UTF8.self).hasSuffix("about:blank\"}") }, as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 404"), "\(answer)")
        }
        let made = try FileManager.default.subpathsOfDirectory(atPath: harness.folder).filter { $0.hasSuffix(".sqlite") && $0.contains("layer") }
        #expect(made.isEmpty, "\(made)")
    }

    /// A socket stays open while its token lasts and is closed with a policy violation when
    /// it ends. The token lives an hour; the test says when it ends (``CollaborationConfiguration/tokenEnd``),
    /// so no machine is too slow to connect in time.
    @Test func aSocketClosesWhenItsTokenEnds() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let (ends, end) = AsyncStream<Void>.makeStream()
        collaboration.tokenEnd = { _ in for await _ in ends { return } }
        let token = try await keys.token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration; $0.idleTimeout = .seconds(120) }) { client in
            let heard = Hellos()
            let closed = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(client.port)\(CollaborationServerTests.layerPath())/events?access_token=\(token)",
                logger: Logger(label: "ending")
            ) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    // The hello came: the socket is open, and now its token ends.
                    if case .text(let text) = message, text.contains("hello") { await heard.add(); end.yield() }
                }
            }
            #expect(await heard.count == 1, "the socket was open before its token ended")
            #expect(closed?.closeCode == .policyViolation, "\(String(describing: closed))")
        }
    }

    /// A socket closed because its second check failed carries the error's message as the
    /// close reason, and that message can name a layer as long as the path allows. A close
    /// frame holds at most 123 bytes of reason (RFC 6455, 5.5), so the reason is cut at the
    /// last whole character (here a family emoji of 25 bytes in seven scalars) that fits.
    @Test func aCloseReasonFitsItsFrame() {
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}"
        let message = "there is no layer " + String(repeating: "é" + family, count: 40)
        let reason = LayerSocket.closeReason(message)
        #expect(reason.utf8.count <= LayerSocket.closeReasonLimit)
        #expect(message.hasPrefix(reason))
        // The longest whole-character prefix that fits: one more character would not.
        let next = message[message.index(message.startIndex, offsetBy: reason.count)]
        #expect(reason.utf8.count + String(next).utf8.count > LayerSocket.closeReasonLimit)
        #expect(reason.last == "é" || reason.last == Character(family), "cut inside a character: \(reason.unicodeScalars.last!)")
        let short = "the token has expired or was revoked"
        #expect(LayerSocket.closeReason(short) == short)
    }

    @Test func tokensAreHeldToTheirTimesLifetimeAndAudience() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        var collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        collaboration.policy = TokenPolicy(maximumLifetime: 86_400, audience: "renderer-tests")
        let issuer = try await CollaborationTokens(pem: keys.privatePEM)
        let descriptor = try DocumentDescriptor(documentID: "docs/annotations.pdf", layer: "review")
        func token(issued: Date = Date(), expires: TimeInterval = 3_600, notBefore: Date? = nil, audience: [String]? = ["renderer-tests"]) async throws -> String {
            try await issuer.issue(CollaborationClaims(
                user: "alice", descriptor: descriptor, permissions: ["read-document", "write"], issued: issued,
                expires: issued.addingTimeInterval(expires), notBefore: notBefore, audience: audience))
        }
        let hour: TimeInterval = 3_600
        let cases: [(String, String, Int)] = [
            ("good", try await token(), 200),
            ("issued in an hour", try await token(issued: Date().addingTimeInterval(hour)), 401),
            ("valid from an hour on", try await token(notBefore: Date().addingTimeInterval(hour)), 401),
            ("valid until 9999", try await token(expires: 250_000 * 86_400), 401),
            ("no audience", try await token(audience: nil), 401),
            ("another audience", try await token(audience: ["elsewhere"]), 401),
            ("this audience among others", try await token(audience: ["elsewhere", "renderer-tests"]), 200),
        ]
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            for (name, token, status) in cases {
                let answer = try await client.execute(
                    uri: CollaborationServerTests.layerPath() + "/annotations", method: .get, headers: [.authorization: "Bearer \(token)"])
                #expect(answer.status.code == status, "\(name): \(answer.status) \(answer.errorMessage ?? "")")
            }
        }
    }

    @Test func aLayerTakesOnlyTheKindsReadersCreate() async throws {
        let (harness, keys) = (try ServerHarness(extra: ["annotations.pdf"]), Keys())
        let collaboration = try await keys.configuration(database: harness.folder + "/layers.sqlite")
        let alice = try await keys.token("alice")
        try await harness.run(configure: { $0.collaboration = collaboration }) { client in
            let kinds: [AnnotationKind] = [.init(rawValue: "Widget"), .init(rawValue: "Link"), .init(rawValue: "Screen")]
            let changes = kinds.enumerated().map { index, kind in
                LayerChange(operationID: "k\(index)", action: .add, annotation: Annotation(
                    id: "k\(index)", kind: kind, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 50, height: 20)))
            }
            let answer = try #require(try await CollaborationServerTests.push(client, token: alice, changes).1)
            #expect(answer.results.map(\.reason) == [.invalid, .invalid, .invalid])
        }
    }

    @Test func otherSitesCannotChangeStateThroughTheCookie() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let entry = try await client.execute(uri: "/?token=\(ServerHarness.token)", method: .get)
            let setCookie: String? = entry.headers[.setCookie]?.split(separator: ";").first.map(String.init)
            let cookie = try #require(setCookie)
            #expect(cookie.hasPrefix("renderer_token_") && cookie.hasSuffix("=\(ServerHarness.token)"))
            let bookmarks = documentPath("long.pdf") + "/bookmarks"
            let body = Data(#"{"pageIndex": 3, "title": "from elsewhere"}"#.utf8)
            // A form post from a page on another local port: the simple content types and a foreign origin.
            let attempts: [(type: String, origin: String?, status: Int)] = [
                ("text/plain", nil, 415), ("application/x-www-form-urlencoded", nil, 415), ("multipart/form-data; boundary=x", nil, 415),
                ("application/json", "http://127.0.0.1:1", 403), ("application/json", "null", 403),
                ("application/json", "http://127.0.0.1:\(client.port)", 201),
            ]
            for (type, origin, status) in attempts {
                var headers: HTTPFields = [.cookie: cookie, .contentType: type]
                if let origin { headers[.origin] = origin }
                let answer = try await client.execute(uri: bookmarks, method: .post, headers: headers, body: body)
                #expect(answer.status.code == status, "\(type) from \(origin ?? "no origin"): \(answer.status)")
            }
            let kept = try await client.get(bookmarks)
            #expect((kept.json as? [[String: Any]])?.count == 1)
            // Another server's cookie name is not this one's.
            let foreignCookie: HTTPFields = [.cookie: "renderer_token=\(ServerHarness.token)"]
            let other = try await client.execute(uri: "/api/documents", method: .get, headers: foreignCookie)
            #expect(other.status == .unauthorized)
        }
    }

    /// The routes generated from the OpenAPI document (`GeneratedRoutes`) keep the others'
    /// habits against an unfriendly client: the token and the same-origin check, problem
    /// documents for what the generated code refuses (an `Accept` no answer meets is 406, a
    /// malformed one 400, a query parameter it cannot read named), a handler's own error as
    /// it threw it, not as a 500, the request's own parameters read as on every route, and
    /// answers never cached.
    @Test func theGeneratedRoutesRefuseAsTheOthersDo() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let anonymous = try await client.execute(uri: "/api/annotation-kinds", method: .get)
            #expect(anonymous.status == .unauthorized && anonymous.errorCode == "unauthorized")
            var foreign = ServerHarness.authorization
            foreign[.origin] = "http://127.0.0.1:1"
            let crossSite = try await client.execute(uri: "/api/viewer/opened", method: .post, headers: foreign)
            #expect(crossSite.status == .forbidden, "\(crossSite.status)")
            var formPost = ServerHarness.authorization
            formPost[.contentType] = "text/plain"
            let simple = try await client.execute(uri: "/api/viewer/closed", method: .post, headers: formPost, body: Data("x".utf8))
            #expect(simple.status == .unsupportedMediaType, "\(simple.status)")
            for (accept, status, code) in [("text/html", 406, "not-acceptable"), (";;;", 400, "bad-request"), ("application/*", 200, nil)] {
                var headers = ServerHarness.authorization
                headers[.accept] = accept
                let answer = try await client.execute(uri: "/api/documents", method: .get, headers: headers)
                #expect(answer.status.code == status, "Accept: \(accept): \(answer.status)")
                if let code {
                    #expect(answer.headers[.contentType] == "application/problem+json" && answer.errorCode == code && answer.problemStatus == status)
                }
            }
            // This server takes no uploads: the handler's 404, with its own words.
            let uploads = try await client.get("/api/uploads")
            #expect(uploads.status == .notFound && uploads.errorCode == "not-found" && uploads.errorMessage == "this server takes no uploads")
            let listed = try await client.get("/api/documents")
            #expect(listed.status == .ok && (listed.json as? [[String: Any]])?.isEmpty == false)
            #expect(listed.headers[.cacheControl] == "no-store")
            // A document's routes: the renderer the request names, the document it names.
            let fonts = try await client.get(documentPath("text.pdf") + "/fonts?renderer=poppler")
            #expect(fonts.status == .ok && (fonts.json as? [[String: Any]])?.isEmpty == false && fonts.headers[.cacheControl] == "no-store")
            let unknown = try await client.get(documentPath("text.pdf") + "/fonts?renderer=nonesuch")
            #expect(unknown.status == .badRequest && unknown.errorCode == "bad-request" && unknown.errorMessage?.contains("nonesuch") == true)
            // A query parameter the generated code cannot read is named, with what it must be.
            for (query, words) in [("/annotations?page=abc", #"page must be a whole number from 0 to 2147483647, not "abc""#),
                                   ("/structure?format=yaml", #"format must be one of json, markdown, html, not "yaml""#),
                                   ("/structure?first=%FF", "first is not percent-encoded UTF-8")] {
                let refused = try await client.get(documentPath("text.pdf") + query)
                #expect(refused.status == .badRequest && refused.errorCode == "bad-request" && refused.errorMessage == words, "\(query): \(refused.errorMessage ?? "")")
            }
            let missing = try await client.get(documentPath("no-such.pdf") + "/outline")
            #expect(missing.status == .notFound && missing.errorCode == "not-found")
            let notPDF = try await client.get(documentPath("not-a-pdf.pdf") + "/images")
            #expect(notPDF.status == .forbidden && notPDF.errorMessage == "\"docs/not-a-pdf.pdf\" is not a PDF document", "\(notPDF.status)")
        }
    }

    /// The generated routes that write read their bodies as the hand-written ones do: a body
    /// past the server's limit is refused (413) before the route runs, one that is not JSON or
    /// not what the document describes is a 400, a query or path that does not parse is a 400,
    /// and the files are left as they were. What they made is named in `Location` as a path,
    /// and an annotation's entity tag in `ETag` as it is, not percent-encoded whole as the
    /// generated code would write them.
    @Test func theGeneratedWritesRefuseBadBodiesAndChangeNothing() async throws {
        let harness = try ServerHarness(extra: ["forms.pdf"])
        let files = ["text.pdf", "forms.pdf"].map { "\(harness.docs)/\($0)" }
        let originals = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        try await harness.run(configure: { $0.bodyLimit = 2048 }) { client in
            let text = documentPath("text.pdf")
            let tooLarge = Data(repeating: 0x20, count: 4096)
            let cases: [(HTTPRequest.Method, String, Data, HTTPResponse.Status, String)] = [
                (.put, text + "/outline", Data("not json".utf8), .badRequest, "bad-request"),
                (.put, text + "/outline", Data(#"[{"title": 5}]"#.utf8), .badRequest, "bad-request"),
                (.put, text + "/outline", tooLarge, .contentTooLarge, "too-large"),
                (.post, text + "/pages/0/links", Data("{}".utf8), .badRequest, "bad-request"),
                (.post, text + "/pages/-1/links", Data(#"{"rect": {"origin": {"x": 0, "y": 0}, "size": {"width": 9, "height": 9}}, "destination": {"kind": "uri", "uri": "https://example.org"}}"#.utf8), .badRequest, "bad-request"),
                (.post, text + "/pages/0/links", tooLarge, .contentTooLarge, "too-large"),
                (.delete, text + "/pages/0/links?rect=1,2,3", Data(), .badRequest, "bad-request"),
                (.delete, text + "/pages/0/links", Data(), .badRequest, "bad-request"),
                (.post, documentPath("forms.pdf") + "/form", Data("[1, 2]".utf8), .badRequest, "bad-request"),
                (.post, documentPath("forms.pdf") + "/form", tooLarge, .contentTooLarge, "too-large"),
                (.post, text + "/bookmarks", Data(#"{"pageIndex": "one", "title": "t"}"#.utf8), .badRequest, "bad-request"),
                (.put, text + "/state", Data(#"{"zoom": 2}"#.utf8), .badRequest, "bad-request"),
                (.put, text + "/state", tooLarge, .contentTooLarge, "too-large"),
                (.post, text + "/annotations", tooLarge, .contentTooLarge, "too-large"),
                (.post, text + "/annotations", Data(#"{"kind": "Highlight"}"#.utf8), .badRequest, "bad-request"),
                (.put, text + "/annotations/some-id", Data("not json".utf8), .badRequest, "bad-request"),
                (.post, text + "/image-stamps", Data(#"{"annotation": 1, "image": "AAAA"}"#.utf8), .badRequest, "bad-request"),
                (.post, text + "/unlock", tooLarge, .contentTooLarge, "too-large"),
                (.post, text + "/print", Data("{}".utf8), .notFound, "not-found"),
                (.post, text + "/protected", Data(#"{"ownerPassword": 5}"#.utf8), .badRequest, "bad-request"),
                (.post, text + "/optimized?jpegQuality=best", Data(), .badRequest, "bad-request"),
                (.post, text + "/stamped", tooLarge, .contentTooLarge, "too-large"),
                // XFDF labelled as JSON: only the media types the document lists are read.
                (.post, text + "/annotations.xfdf", Data(#"<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots/></xfdf>"#.utf8), .unsupportedMediaType, "unsupported-media-type"),
            ]
            for (method, uri, body, status, code) in cases {
                let answer = try await client.send(method, uri, body: body)
                #expect(answer.status == status && answer.errorCode == code, "\(method) \(uri) \(String(decoding: body.prefix(40), as: UTF8.self)): \(answer.status) \(answer.body.prefix(200))")
                #expect(!answer.body.contains(harness.folder))
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: files[0])) == originals[0])
            let added = try await client.send(.post, text + "/bookmarks", body: Data(#"{"pageIndex": 0, "title": "kept"}"#.utf8))
            let id = try #require((added.json as? [String: Any])?["id"] as? String)
            #expect(added.status == .created && added.headers[.location] == text + "/bookmarks/" + id, "\(added.headers)")
            let annotated = try await client.send(.post, text + "/annotations", body: ServerEditingTests.highlight)
            let annotation = try #require((annotated.json as? [String: Any])?["id"] as? String)
            let tag = try #require(annotated.headers[.eTag])
            #expect(annotated.status == .created && tag.hasPrefix("\"") && tag.hasSuffix("\""), "\(annotated.headers)")
            #expect(annotated.headers[.location] == text + "/annotations/" + annotation.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!)
            let read = try await client.get(annotated.headers[.location] ?? "")
            #expect(read.status == .ok && read.headers[.eTag] == tag)
            #expect(try await client.get("/api/health").status == .ok)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: files[1])) == originals[1])
    }

    @Test func onlyDocumentsAreServedAndNothingHidden() async throws {
        let harness = try ServerHarness()
        let pdf = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf")))
        try FileManager.default.createDirectory(atPath: harness.docs + "/.private", withIntermediateDirectories: true)
        for name in [".hidden.pdf", ".private/inside.pdf"] { try pdf.write(to: URL(fileURLWithPath: "\(harness.docs)/\(name)")) }
        // Text that starts like a PDF, under a name that is not one.
        try Data("%PDF-1.4\nnotes of the server\n".utf8).write(to: URL(fileURLWithPath: harness.docs + "/notes.txt"))
        try pdf.write(to: URL(fileURLWithPath: harness.docs + "/copy.PDF.txt"))
        try await harness.run { client in
            let listed = try await client.get("/api/documents")
            let ids = (listed.json as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            #expect(!ids.isEmpty && !ids.contains { $0.contains("/.") || !$0.lowercased().hasSuffix(".pdf") }, "\(ids)")
            for name in [".hidden.pdf", ".private%2Finside.pdf", "notes.txt", "copy.PDF.txt"] {
                for route in ["/file", ""] {
                    let answer = try await client.get("/api/documents/docs%2F" + name + route)
                    #expect(answer.status == .notFound, "\(name)\(route): \(answer.status)")
                    #expect(!String(decoding: answer.data, as: UTF8.self).contains(harness.folder))
                }
            }
            // A damaged PDF is not handed out whole either: only what an engine opens is.
            let damaged = try await client.get(documentPath("truncated.pdf") + "/file")
            #expect(damaged.status == .unprocessableContent && !String(decoding: damaged.data, as: UTF8.self).contains(harness.folder))
        }
    }

    @Test func downloadsAreStreamedWithByteRanges() async throws {
        let harness = try ServerHarness(extra: ["annotations.pdf"])
        let file = try Data(contentsOf: URL(fileURLWithPath: harness.docs + "/long.pdf"))
        try await harness.run { client in
            let whole = try await client.get(documentPath("long.pdf") + "/file")
            #expect(whole.status == .ok && whole.data == file && whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.contentDisposition] == #"attachment; filename="long.pdf"; filename*=UTF-8''long.pdf"#)
            let eTag = try #require(whole.headers[.eTag])
            let cases: [(String, Range<Int>)] = [("bytes=0-99", 0..<100), ("bytes=100-", 100..<file.count), ("bytes=-10", (file.count - 10)..<file.count),
                                                ("bytes=5-999999999", 5..<file.count)]
            for (range, expected) in cases {
                let part = try await client.get(documentPath("long.pdf") + "/file", headers: [.range: range])
                #expect(part.status == .partialContent && part.data == file.subdata(in: expected), "\(range): \(part.status) \(part.data.count)")
                #expect(part.headers[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(file.count)")
            }
            let past = try await client.get(documentPath("long.pdf") + "/file", headers: [.range: "bytes=\(file.count)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(file.count)")
            // A range of an older version (If-Range no longer matches) gets the whole file.
            let stale = try await client.get(documentPath("long.pdf") + "/file", headers: [.range: "bytes=0-9", .ifRange: "\"older\""])
            #expect(stale.status == .ok && stale.data == file)
            let current = try await client.get(documentPath("long.pdf") + "/file", headers: [.range: "bytes=0-9", .ifRange: eTag])
            #expect(current.status == .partialContent && current.data.count == 10)
            // Several ranges at once are not split: the whole file, as HTTP allows.
            let several = try await client.get(documentPath("long.pdf") + "/file", headers: [.range: "bytes=0-1,5-6"])
            #expect(several.status == .ok && several.data == file)
        }
    }
}

/// Clients that hold connections or memory: a request sent in part, a connection left idle,
/// page images that would take more memory than the server gives drawing.
@Suite struct ServerStallTests {
    @Test func halfSentRequestsAndIdleConnectionsAreClosed() async throws {
        try await ServerHarness().run(configure: { $0.requestHeadTimeout = .seconds(1); $0.idleTimeout = .seconds(1) }) { client in
            // Part of a head, never finished; and nothing at all.
            let partial = try RawHTTPConnection(port: client.port, timeout: 120)
            try partial.sendText("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthor")
            let silent = try RawHTTPConnection(port: client.port, timeout: 120)
            for connection in [partial, silent] {
                let read = await connection.read { _ in false }  // until the server closes (or 120 s pass)
                #expect(connection.closedByServer && read.isEmpty)
            }
            // A whole request is answered; the connection, then idle, is closed.
            let idle = try RawHTTPConnection(port: client.port, timeout: 120)
            try idle.get("/api/health", headers: ["Authorization": "Bearer \(ServerHarness.token)"])
            let answer = await idle.read { _ in false }
            #expect(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 200") && idle.closedByServer)
            // The server still answers others.
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    /// Connections past the limits (in all, and from one address: every test client is on
    /// 127.0.0.1) are answered 503 and closed at once; one that closes makes room again.
    @Test(arguments: [(total: 4, perAddress: 4), (total: 10, perAddress: 2)])
    func connectionsPastTheLimitsAreRefused(limits: (total: Int, perAddress: Int)) async throws {
        try await ServerHarness().run(configure: { $0.connectionLimit = limits.total; $0.connectionLimitPerAddress = limits.perAddress }) { client in
            let authorization = ["Authorization": "Bearer \(ServerHarness.token)"]
            /// A new connection's answer to a health check: 200 and open, or 503 and closed.
            func connect() async throws -> (connection: RawHTTPConnection, answer: String) {
                let connection = try RawHTTPConnection(port: client.port, timeout: 120)
                try connection.get("/api/health", headers: authorization)
                let answer = String(decoding: await connection.read { String(decoding: $0, as: UTF8.self).hasSuffix("}") }, as: UTF8.self)
                return (connection, answer)
            }
            var held: [RawHTTPConnection] = []
            var refusal = ""
            for _ in 0...limits.perAddress {
                let (connection, answer) = try await connect()
                guard answer.hasPrefix("HTTP/1.1 200") else {
                    refusal = answer
                    _ = await connection.read { _ in false }  // until the server closes
                    #expect(connection.closedByServer)
                    break
                }
                held.append(connection)
            }
            #expect(held.count == limits.perAddress)
            #expect(refusal.hasPrefix("HTTP/1.1 503") && refusal.contains("too-many-connections"), "\(refusal)")
            // A connection that closes makes room: polled, as the server hears of the close
            // in its own time.
            held.removeLast().close()
            var admitted = false
            for _ in 0..<1200 where !admitted {
                let (connection, answer) = try await connect()
                admitted = answer.hasPrefix("HTTP/1.1 200")
                if admitted { held.append(connection) } else { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(admitted)
            for connection in held { connection.close() }
        }
    }

    /// A body sent a byte at a time keeps a connection from ever being idle: the server
    /// closes it once the body has taken longer than its deadline, while the bytes still come.
    @Test func aBodySentAByteAtATimeIsCutOffAtItsDeadline() async throws {
        try await ServerHarness().run(configure: { $0.idleTimeout = .seconds(1); $0.requestBodyTimeout = .seconds(3) }) { client in
            let connection = try RawHTTPConnection(port: client.port, timeout: 120)
            try connection.sendText(
                "POST \(documentPath("text.pdf"))/annotations HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(ServerHarness.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
            // A byte every 200 ms, well within the idle timeout, for up to 100 s.
            let sender = Task {
                for _ in 0..<500 {
                    try await Task.sleep(for: .milliseconds(200))
                    try connection.sendText(" ")
                }
                return true
            }
            _ = await connection.read { _ in false }  // until the server closes (or 120 s pass)
            sender.cancel()
            let senderFinished = (try? await sender.value) == true
            #expect(connection.closedByServer && !senderFinished, "the connection stayed open while the body came")
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    /// An error answered before the body has come (here a 401 to a request without a token,
    /// whose body would take the client for ever) closes the connection rather than read the
    /// rest; a request whose body has all come keeps its connection after an error.
    @Test func anErrorAnsweredBeforeTheBodyClosesTheConnection() async throws {
        try await ServerHarness().run { client in
            let anonymous = try RawHTTPConnection(port: client.port, timeout: 120)
            try anonymous.sendText(
                "POST \(documentPath("text.pdf"))/annotations HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000000\r\n\r\n{\"kind\"")
            let refused = String(decoding: await anonymous.read { _ in false }, as: UTF8.self)
            #expect(refused.hasPrefix("HTTP/1.1 401") && refused.lowercased().contains("connection: close"), "\(refused)")
            #expect(anonymous.closedByServer)

            let whole = try RawHTTPConnection(port: client.port, timeout: 120)
            try whole.sendText(
                "POST \(documentPath("text.pdf"))/annotations HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(ServerHarness.token)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            let first = String(decoding: await whole.read { String(decoding: $0, as: UTF8.self).contains("about:blank\"}") }, as: UTF8.self)
            #expect(first.hasPrefix("HTTP/1.1 400") && !first.lowercased().contains("connection: close"), "\(first)")
            try whole.get("/api/health", headers: ["Authorization": "Bearer \(ServerHarness.token)"])
            let second = String(decoding: await whole.read { String(decoding: $0, as: UTF8.self).contains("HTTP/1.1 200") }, as: UTF8.self)
            #expect(second.contains("HTTP/1.1 200") && !whole.closedByServer, "\(second)")
        }
    }

    /// A first request head the HTTP parser refuses (a NUL or another control character in a
    /// header, a NUL in the method) is answered at once with a 400 JSON error and the
    /// connection closed; before, no answer came and the connection stayed open until the
    /// client left. A head that can be read, on a connection after a good request, is
    /// refused by the framework in the same way.
    @Test func anUnreadableRequestHeadIsAnsweredAndClosed() async throws {
        try await ServerHarness().run { client in
            let authorization = "Authorization: Bearer \(ServerHarness.token)\r\n"
            for head in ["GET /api/health HTTP/1.1\r\nHost: a\r\nX-Test: a\u{0}b\r\n\(authorization)\r\n",
                         "GET /api/health HTTP/1.1\r\nHost: a\r\nX-Test: a\u{1}b\r\n\r\n", "G\u{0}T / HTTP/1.1\r\n\r\n"] {
                let connection = try RawHTTPConnection(port: client.port, timeout: 120)
                try connection.sendText(head)
                let answer = String(decoding: await connection.read { _ in false }, as: UTF8.self)  // until the server closes
                #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("\"code\":\"bad-request\""), "\(answer)")
                #expect(connection.closedByServer, "\(head.debugDescription)")
            }
            let later = try RawHTTPConnection(port: client.port, timeout: 120)
            try later.sendText("GET /api/health HTTP/1.1\r\nHost: a\r\n\(authorization)\r\nGET /api/health HTTP/1.1\r\nX-Test: a\u{0}b\r\n\r\n")
            let answers = String(decoding: await later.read { _ in false }, as: UTF8.self)
            #expect(answers.hasPrefix("HTTP/1.1 200") && answers.contains("HTTP/1.1 400") && later.closedByServer, "\(answers)")
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    @Test func pageImagesKeepToTheRenderBudget() async throws {
        try await ServerHarness().run(configure: { $0.renderMemoryBytes = 1 << 20 }) { client in
            // Letter at 300 dpi: 8.4 million pixels, far past a budget of 1 MiB.
            let large = try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=300")
            #expect(large.status == .unprocessableContent && large.errorCode == "limit-exceeded", "\(large.status) \(large.errorMessage ?? "")")
            let small = try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=20")
            #expect(small.status == .ok)
            // What the drawings took is given back: no task queued, no byte of the budget held.
            let health = try #require(try await client.get("/api/health").json as? [String: Any])
            #expect(health["queued"] as? Int == 0 && health["renderingBytes"] as? Int == 0, "\(health)")
        }
    }
}

/// The hello messages a socket test has heard.
private actor Hellos {
    private(set) var count = 0
    func add() { count += 1 }
}
