import Foundation
import HTTPTypes
import RendererServer
import Testing

/// Each reader's bookmarks and place, against the real server: kept per reader (the
/// `Reader-ID` header here, the viewer's reader cookie in a browser), never seen by another,
/// and back after a restart from the same state database.
@Suite struct ServerReaderStateTests {
    static let alice = "alice-reader-0123456789abcdef"
    static let bob = "bob-reader-0123456789abcdef"

    static func reader(_ id: String) -> HTTPFields { [HTTPField.Name("Reader-ID")!: id] }

    static func request(_ client: ServerClient, _ method: HTTPRequest.Method, _ uri: String, reader: String, json: String? = nil) async throws -> ServerResponse {
        var headers = ServerHarness.authorization
        headers.append(contentsOf: Self.reader(reader))
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(uri: uri, method: method, headers: headers, body: json.map { Data($0.utf8) })
    }

    @Test func readersKeepTheirOwnPlaceAndBookmarksAcrossARestart() async throws {
        let harness = try ServerHarness()
        let database = harness.folder + "/readers.sqlite"
        let document = documentPath("long.pdf")
        try await harness.run(configure: { $0.readerStatePath = database }) { client in
            let placed = try await Self.request(client, .put, document + "/state", reader: Self.alice, json: #"{"pageIndex": 39, "zoom": 1.5, "scrollOffset": {"x": 0, "y": 120}}"#)
            #expect(placed.status == .ok, "\(placed.status) \(placed.errorMessage ?? "")")
            let marked = try await Self.request(client, .post, document + "/bookmarks", reader: Self.alice, json: #"{"pageIndex": 39, "title": "Alice's place"}"#)
            #expect(marked.status == .created)
            let aliceBookmark = try #require((marked.json as? [String: Any])?["id"] as? String)

            // Bob, and a client that names no reader, see none of it.
            for other in [Self.bob] {
                let state = try await Self.request(client, .get, document + "/state", reader: other)
                #expect((state.json as? [String: Any])?["pageIndex"] as? Int == 0)
                let bookmarks = try await Self.request(client, .get, document + "/bookmarks", reader: other)
                #expect((bookmarks.json as? [Any])?.isEmpty == true)
                let removed = try await Self.request(client, .delete, document + "/bookmarks/" + aliceBookmark, reader: other)
                #expect(removed.status == .notFound, "another reader's bookmark: \(removed.status)")
            }
            let anonymous = try await client.get(document + "/state")
            #expect((anonymous.json as? [String: Any])?["pageIndex"] as? Int == 0)
            #expect((try await client.get(document + "/bookmarks").json as? [Any])?.isEmpty == true)
            // The same reader in another document starts at its beginning.
            #expect((try await Self.request(client, .get, documentPath("text.pdf") + "/state", reader: Self.alice).json as? [String: Any])?["pageIndex"] as? Int == 0)
        }
        // The database keeps a digest of each reader id, not the id.
        let stored = try Data(contentsOf: URL(fileURLWithPath: database))
        #expect(stored.range(of: Data(Self.alice.utf8)) == nil)

        try await harness.run(configure: { $0.readerStatePath = database }) { client in
            let state = try #require(try await Self.request(client, .get, document + "/state", reader: Self.alice).json as? [String: Any])
            #expect(state["pageIndex"] as? Int == 39 && state["zoom"] as? Double == 1.5, "\(state)")
            let bookmarks = try await Self.request(client, .get, document + "/bookmarks", reader: Self.alice)
            #expect(((bookmarks.json as? [[String: Any]])?.map { $0["title"] as? String }) == ["Alice's place"])
            #expect((try await Self.request(client, .get, document + "/bookmarks", reader: Self.bob).json as? [Any])?.isEmpty == true)
        }
    }

    @Test func everyBookmarkAcknowledgedToConcurrentWritersIsKept() async throws {
        let harness = try ServerHarness()
        try await harness.run(configure: { $0.readerStatePath = harness.folder + "/readers.sqlite" }) { client in
            let document = documentPath("long.pdf")
            let acknowledged = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        let reader = index.isMultiple(of: 2) ? Self.alice : Self.bob
                        let answer = try await Self.request(
                            client, .post, document + "/bookmarks", reader: reader, json: #"{"pageIndex": \#(index), "title": "b\#(index)"}"#)
                        return answer.status == .created ? "\(reader)|b\(index)" : nil
                    }
                }
                return try await group.reduce(into: Set<String>()) { if let title = $1 { $0.insert(title) } }
            }
            #expect(acknowledged.count == 30)
            var stored = Set<String>()
            for reader in [Self.alice, Self.bob] {
                let listed = try await Self.request(client, .get, document + "/bookmarks", reader: reader)
                for bookmark in listed.json as? [[String: Any]] ?? [] { stored.insert("\(reader)|\(bookmark["title"] as? String ?? "")") }
            }
            #expect(stored == acknowledged)
        }
    }

    @Test func aReaderIDAStrangerWroteIsRefused() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            for hostile in ["short", "alice' OR '1'='1' --xxxxxx", String(repeating: "a", count: 129), "../../etc/passwd-xxxxxxxx", "ünïcödé-reader-idxxxxxxxx"] {
                let answer = try await Self.request(client, .get, documentPath("long.pdf") + "/state", reader: hostile)
                #expect(answer.status == .badRequest && answer.errorCode == "bad-request", "\(hostile): \(answer.status)")
            }
            let past = try await Self.request(client, .put, documentPath("long.pdf") + "/state", reader: Self.alice, json: #"{"pageIndex": 100, "zoom": 1, "scrollOffset": {"x": 0, "y": 0}}"#)
            #expect(past.status == .notFound && past.errorCode == "page-out-of-range")
            let zoom = try await Self.request(client, .put, documentPath("long.pdf") + "/state", reader: Self.alice, json: #"{"pageIndex": 1, "zoom": 1e308, "scrollOffset": {"x": 0, "y": 0}}"#)
            #expect(zoom.status == .badRequest)
        }
    }

    @Test func theViewerGivesEachBrowserAReader() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let first = try await client.execute(uri: "/?token=\(ServerHarness.token)", method: .get)
            #expect(first.status == .ok)
            let cookies = first.headers[values: .setCookie]
            let reader = try #require(cookies.first { $0.hasPrefix("renderer_reader_") })
            #expect(reader.contains("HttpOnly") && reader.contains("SameSite=Strict") && reader.contains("Max-Age="))
            let pair = reader.components(separatedBy: ";")[0]
            #expect(pair.split(separator: "=", maxSplits: 1).last.map { $0.count >= 40 } == true)
            // A browser that has one keeps it.
            var headers = ServerHarness.authorization
            headers[.cookie] = pair
            let again = try await client.execute(uri: "/", method: .get, headers: headers)
            #expect(again.status == .ok && !again.headers[values: .setCookie].contains { $0.hasPrefix("renderer_reader_") })
            // Another browser gets another.
            let other = try await client.execute(uri: "/?token=\(ServerHarness.token)", method: .get)
            let otherPair = try #require(other.headers[values: .setCookie].first { $0.hasPrefix("renderer_reader_") }).components(separatedBy: ";")[0]
            #expect(otherPair != pair)
        }
    }
}
