import Foundation
import HTTPTypes
import RendererConversion
import RendererProvider
@testable import RendererServer
import Testing
import TestSupport

/// Readers' uploads, against the real server: off unless configured; a PDF an engine opens is
/// kept under an unguessable, unlisted id apart from the served files; nothing else leaves a
/// byte behind; the oldest go to make room; and concurrent uploads are each kept exactly when
/// they are acknowledged.
@Suite struct ServerUploadTests {
    /// An upload folder beside the harness's served folder, each upload at most `maximum`
    /// bytes, all at most `total`.
    static func uploads(_ harness: ServerHarness, maximum: Int = 1 << 20, total: Int = 8 << 20) -> UploadConfiguration {
        UploadConfiguration(folder: harness.folder + "/uploads", maximumBytes: maximum, totalBytes: total)
    }

    static func upload(_ client: ServerClient, _ bytes: Data, type: String = "application/pdf", headers: HTTPFields = ServerHarness.authorization) async throws -> ServerResponse {
        var headers = headers
        headers[.contentType] = type
        return try await client.execute(uri: "/api/uploads", method: .post, headers: headers, body: bytes)
    }

    /// The files in the uploads' folder, hidden ones included.
    static func kept(_ harness: ServerHarness) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: harness.folder + "/uploads").sorted()
    }

    @Test func aServerTakesNoUploadsUnlessToldTo() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            #expect(try await client.get("/api/uploads").status == .notFound)
            let refused = try await Self.upload(client, try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))))
            #expect(refused.status == .notFound && refused.errorCode == "not-found")
        }
    }

    @Test func anUploadIsReadLikeAServedDocumentButNeverListed() async throws {
        let harness = try ServerHarness()
        try await harness.run(configure: { $0.uploads = Self.uploads(harness) }) { client in
            #expect((try await client.get("/api/uploads").json as? [String: Any])?["maximumBytes"] as? Int == 1 << 20)
            let answer = try await Self.upload(client, try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))))
            #expect(answer.status == .created, "\(answer.status) \(answer.errorMessage ?? "")")
            let id = try #require((answer.json as? [String: Any])?["id"] as? String)
            #expect(id.wholeMatch(of: /uploads\/[0-9a-f]{32}\.pdf/) != nil, "\(id)")
            let path = "/api/documents/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
            #expect(answer.headers[.location] == path)
            let text = try await client.get(path + "/pages/1/text")
            let lines = ((text.json as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
            let words = lines.flatMap { $0["words"] as? [[String: Any]] ?? [] }.compactMap { $0["text"] as? String }
            #expect(words.contains("fixture"), "\(text.status) \(words)")
            #expect(try await client.get(path + "/pages/0/image").status == .ok)
            let listed = try #require(try await client.get("/api/documents").json as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(!listed.isEmpty && !listed.contains { $0.hasPrefix("uploads") })
            // Only the names uploads are given are served from the folder.
            try Data("%PDF-1.7 planted".utf8).write(to: URL(fileURLWithPath: harness.folder + "/uploads/planted.pdf"))
            for planted in ["uploads/planted.pdf", "uploads/" + String(repeating: "0", count: 32) + ".pdf", "uploads", "uploads/../docs/text.pdf", "uploads/x/" + id.dropFirst(8)] {
                let status = try await client.get("/api/documents/" + planted.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!).status
                #expect(status == .notFound, "\(planted): \(status)")
            }
            // The token is asked for, and another site's page cannot upload.
            let anonymous = try await Self.upload(client, Data("%PDF-".utf8), headers: [:])
            #expect(anonymous.status == .unauthorized)
            var foreign = ServerHarness.authorization
            foreign[.origin] = "http://127.0.0.1:1"
            #expect(try await Self.upload(client, Data("%PDF-".utf8), headers: foreign).status == .forbidden)
            #expect(try await Self.upload(client, Data("%PDF-".utf8), type: "text/plain").status == .unsupportedMediaType)
        }
    }

    /// What is not a document a reader can read is refused in words and leaves no file: past
    /// the limit, empty, not a PDF, damaged, a page tree of nothing. An encrypted PDF is kept
    /// (its reader gives the password when it is opened).
    @Test func whatIsNotADocumentLeavesNothing() async throws {
        let harness = try ServerHarness()
        try await harness.run(configure: { $0.uploads = Self.uploads(harness, maximum: 64 << 10) }) { client in
            let fixture = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: Fixtures.path(name))) }
            let refusals: [(Data, HTTPResponse.Status, String)] = [
                (Data("%PDF-1.7\n".utf8) + Data(repeating: 32, count: 70 << 10), .contentTooLarge, "too-large"),
                (Data(), .badRequest, "bad-request"),
                (try fixture("not-a-pdf.pdf"), .unsupportedMediaType, "unsupported-format"),
                (try fixture("truncated.pdf"), .unprocessableContent, "damaged"),
                (try fixture("no-pages.pdf"), .unprocessableContent, "damaged"),
            ]
            for (bytes, status, code) in refusals {
                let answer = try await Self.upload(client, bytes)
                #expect(answer.status == status && answer.errorCode == code, "\(code): \(answer.status) \(answer.errorMessage ?? "")")
                #expect(!(answer.errorMessage ?? "").contains(harness.folder), "no path of the server")
                let left = try Self.kept(harness)
                #expect(left.isEmpty, "\(code): \(left)")
            }
            let encrypted = try await Self.upload(client, try fixture("encrypted.pdf"))
            #expect(encrypted.status == .created)
            let id = try #require((encrypted.json as? [String: Any])?["id"] as? String)
            let details = try await client.get("/api/documents/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(details.errorCode == "password-required", "\(details.status)")
        }
    }

    /// A JPEG, PNG or TIFF picture is kept as the PDF of it, a page the picture's size, the
    /// JPEG's bytes its image stream's (qpdf, the witness); a damaged picture or one past the
    /// pixel limit is refused and leaves nothing, and neither does a picture the body's type
    /// calls a PDF.
    @Test func aPictureIsKeptAsThePDFOfIt() async throws {
        let harness = try ServerHarness()
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await harness.run(configure: { $0.uploads = Self.uploads(harness) }) { client in
            let jpeg = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.jpg")))
            let kept = try await Self.upload(client, jpeg, type: "image/jpeg")
            #expect(kept.status == .created, "\(kept.status) \(kept.errorMessage ?? "")")
            let id = try #require((kept.json as? [String: Any])?["id"] as? String)
            let document = "/api/documents/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let pages = try await client.get(document + "/pages")
            #expect((pages.json as? [[String: Any]])?.count == 1, "\(pages.status)")
            let file = try await client.get(document + "/file")
            let path = directory.appendingPathComponent("kept.pdf").path
            try file.data.write(to: URL(fileURLWithPath: path))
            let listed = try await Tool.run("pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2)
            let object = try #require(listed.first?.split(separator: " ", omittingEmptySubsequences: true)[10], "\(listed)")
            #expect(try await Tool.run("qpdf", ["--show-object=\(object)", "--raw-stream-data", path]).stdout == jpeg)
            #expect(try Self.kept(harness).count == 1)

            var truncated = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.png")))
            truncated = truncated.prefix(100)
            let refusals: [(Data, String, String)] = [
                (truncated, "image/png", "damaged"),
                (PictureFiles.pngHeader(width: 20_000, height: 20_000), "image/png", "limit-exceeded"),
            ]
            for (bytes, type, code) in refusals {
                let answer = try await Self.upload(client, bytes, type: type)
                #expect(answer.status == .unprocessableContent && answer.errorCode == code, "\(code): \(answer.status) \(answer.errorMessage ?? "")")
                #expect(!(answer.errorMessage ?? "").contains(harness.folder), "no path of the server")
                let left = try Self.kept(harness)
                #expect(left.count == 1, "\(code): \(left)")
            }
        }
    }

    /// Eight uploads at once into room for five: each is kept (201) or refused for room while
    /// its bytes arrive (503 `busy`) and leaves nothing; every acknowledged upload was kept
    /// whole (byte for byte) until newer bytes needed its room; the folder never holds more
    /// than the room; and nothing else is in it.
    @Test func concurrentUploadsAreKeptAsAcknowledgedWithinTheRoom() async throws {
        let harness = try ServerHarness()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("long.pdf")))
        try await harness.run(configure: { $0.uploads = Self.uploads(harness, maximum: bytes.count, total: bytes.count * 5) }) { client in
            let answers = try await withThrowingTaskGroup(of: ServerResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await Self.upload(client, bytes) } }
                return try await group.reduce(into: [ServerResponse]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.status == .created || ($0.status == .serviceUnavailable && $0.errorCode == "busy") })
            let ids = answers.compactMap { $0.status == .created ? ($0.json as? [String: Any])?["id"] as? String : nil }
            #expect(ids.count >= 5 && Set(ids).count == ids.count, "\(answers.map(\.status))")
            let files = try Self.kept(harness)
            #expect(files.count <= 5 && files.allSatisfy { !$0.hasPrefix(".") }, "\(files)")
            for file in files {
                #expect(ids.contains("uploads/" + file))
                #expect(try Data(contentsOf: URL(fileURLWithPath: harness.folder + "/uploads/" + file)) == bytes)
            }
            // One more: the room is given back, so it is kept; to make room for it the first
            // kept goes when five are there. The one gone is not found, the others are.
            let newest = try #require((try await Self.upload(client, bytes).json as? [String: Any])?["id"] as? String)
            let after = try Self.kept(harness)
            let gone = Set(files).subtracting(after)
            #expect(after.count == min(5, files.count + 1) && gone.count == files.count + 1 - after.count, "\(after)")
            #expect(after.contains(String(newest.dropFirst(8))))
            for file in files {
                let status = try await client.get("/api/documents/uploads%2F" + file).status
                #expect(status == (gone.contains(file) ? .notFound : .ok), "\(file)")
            }
        }
    }

    /// Uploads still being received count against the room as their bytes arrive: a client
    /// that holds one open takes its room, a second whose bytes would pass the room is
    /// refused 503 while they arrive and its bytes go, the folder never holds more than the
    /// room, and once the first ends its room is given back.
    @Test func uploadsBeingReceivedCountAgainstTheRoom() async throws {
        let harness = try ServerHarness()
        let room = 1 << 20
        let folder = harness.folder + "/uploads"
        @Sendable func bytesInFolder() -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).reduce(0) { total, name in
                total + (((try? FileManager.default.attributesOfItem(atPath: folder + "/" + name))?[.size] as? Int) ?? 0)
            }
        }
        try await harness.run(configure: { $0.uploads = Self.uploads(harness, maximum: room, total: room) }) { client in
            let head = "POST /api/uploads HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \(ServerHarness.token)\r\n"
                + "Content-Type: application/pdf\r\nContent-Length: 800000\r\n\r\n"
            let part = Data("%PDF-1.4\n".utf8) + Data(repeating: 0x25, count: 700_000 - 9)
            let first = try RawHTTPConnection(port: client.port, timeout: 120)
            try first.sendText(head)
            try first.sendData(part)
            try await ServerEditingTests.waitUntil("the first upload's 700,000 bytes are in the folder") { bytesInFolder() == 700_000 }

            let second = try RawHTTPConnection(port: client.port, timeout: 120)
            try second.sendText(head)
            try? second.sendData(part)
            let refused = String(decoding: await second.read { String(decoding: $0, as: UTF8.self).contains("about:blank\"}") }, as: UTF8.self)
            #expect(refused.hasPrefix("HTTP/1.1 503") && refused.contains("\"busy\""), "\(refused.prefix(300))")
            #expect(bytesInFolder() <= room)

            // The first ends (its bytes are no PDF an engine reads): nothing of it stays, and
            // its room is given back to the next upload.
            try first.sendData(Data(repeating: 0x25, count: 100_000))
            let ended = String(decoding: await first.read { String(decoding: $0, as: UTF8.self).contains("about:blank\"}") }, as: UTF8.self)
            #expect(ended.hasPrefix("HTTP/1.1 422"), "\(ended.prefix(300))")
            let next = try await Self.upload(client, try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf"))))
            #expect(next.status == .created, "\(next.errorMessage ?? "")")
            #expect(try Self.kept(harness).count == 1)
        }
    }

    /// The uploads' folder may not hold a served root, nor lie in one.
    @Test func uploadsStayApartFromTheServedFiles() throws {
        let harness = try ServerHarness()
        for folder in [harness.docs + "/uploads", harness.folder] {
            var configuration = ServerConfiguration(roots: [harness.docs], token: ServerHarness.token, port: 0)
            configuration.uploads = UploadConfiguration(folder: folder)
            #expect { try DocumentServer(configuration: configuration, registry: Fixtures.registry) } throws: {
                ($0 as? RendererError)?.code == .invalidArgument
            }
        }
    }

    /// With office conversion on, a Word document and a flat OpenDocument presentation sent
    /// under their own media types are kept as the PDFs LibreOffice makes of them (their words
    /// read back through the server, their pages counted), the facts name the extensions and
    /// the API's schema lists every type the server takes; a damaged one is 422 and leaves
    /// nothing; without conversion a Word document is 415. The uploads' folder holds only what
    /// was kept.
    @Test func officeDocumentsAreKeptAsTheirPDFsWhenTheServerConvertsThem() async throws {
        let harness = try ServerHarness()
        let inputs = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let made = try await Tool.run("/usr/bin/python3", [Fixtures.path("make-office-inputs.py"), inputs.path, "http://127.0.0.1:9/none.png"])
        #expect(made.status == 0, "\(made.stderr)")
        let files = try Dictionary(uniqueKeysWithValues: ["letter.docx", "slides.fodp", "broken.docx"].map { ($0, try Data(contentsOf: inputs.appendingPathComponent($0))) })
        let input = { @Sendable (name: String) in files[name]! }
        let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        try await harness.run(configure: {
            var uploads = Self.uploads(harness)
            uploads.officeConversion = OfficeConverter.Configuration()
            $0.uploads = uploads
        }) { client in
            let facts = try #require(try await client.get("/api/uploads").json as? [String: Any])
            #expect(facts["officeDocuments"] as? [String] == OfficeConverter.documentExtensions.sorted())
            for (name, type, words, pages) in [
                ("letter.docx", docx, ["Dear", "Sincerely"], 2), ("slides.fodp", "application/vnd.oasis.opendocument.presentation", ["Opening", "Closing"], 2),
            ] {
                let answer = try await Self.upload(client, input(name), type: type)
                #expect(answer.status == .created, "\(name): \(answer.status) \(answer.errorMessage ?? "")")
                let id = try #require((answer.json as? [String: Any])?["id"] as? String)
                let path = "/api/documents/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
                let document = try #require(try await client.get(path).json as? [String: Any])
                #expect((document["info"] as? [String: Any])?["pageCount"] as? Int == pages, "\(name): \(document)")
                var read: [String] = []
                for page in 0..<pages {
                    let lines = ((try await client.get(path + "/pages/\(page)/text").json as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
                    read += lines.flatMap { $0["words"] as? [[String: Any]] ?? [] }.compactMap { $0["text"] as? String }
                }
                #expect(words.allSatisfy(read.contains), "\(name): \(read)")
            }
            let before = try Self.kept(harness)
            let damaged = try await Self.upload(client, input("broken.docx"), type: docx)
            #expect(damaged.status == .unprocessableContent && damaged.errorCode != nil, "\(damaged.status) \(damaged.errorMessage ?? "")")
            #expect(!(damaged.errorMessage ?? "").contains(harness.folder), "\(damaged.errorMessage ?? "")")
            #expect(try Self.kept(harness) == before)
        }
        try await harness.run(configure: { $0.uploads = Self.uploads(harness) }) { client in
            #expect((try await client.get("/api/uploads").json as? [String: Any])?["officeDocuments"] == nil)
            let refused = try await Self.upload(client, input("letter.docx"), type: docx)
            #expect(refused.status == .unsupportedMediaType, "\(refused.status)")
        }
        // The schema lists the types the server takes.
        try Self.expectSchemaListsEveryUploadType()
    }

    /// The media types the upload route takes, as the API's schema lists them: PDF, pictures,
    /// and the office and HTML documents the server converts when told to.
    static func expectSchemaListsEveryUploadType() throws {
        let schema = try JSONSerialization.jsonObject(with: try #require(try OpenAPIDocument.shipped.get())) as? [String: Any]
        let paths = schema?["paths"] as? [String: Any], uploads = paths?["/api/uploads"] as? [String: Any], post = uploads?["post"] as? [String: Any]
        let content = ((post?["requestBody"] as? [String: Any])?["content"] as? [String: Any]).map { Set($0.keys) } ?? []
        #expect(content == Set(["application/pdf", "image/jpeg", "image/png", "image/tiff"]).union(OfficeConverter.mediaTypes).union(HTMLConverter.mediaTypes))
    }

    /// With HTML conversion on, a page sent as text/html, or with no type of its own as the
    /// viewer sends every file, is kept as the PDF Chromium prints of it: its words read back
    /// through the server and nothing else, though it asks for this server's API, another
    /// loopback port, a file of the machine and a name on the network. A page whose script
    /// never ends is 422 within the time limit and leaves nothing; without conversion a page
    /// is 415.
    @Test func htmlPagesAreKeptAsThePDFsChromiumPrintsWhenTheServerConvertsThem() async throws {
        let harness = try ServerHarness()
        try await harness.run(configure: {
            var uploads = Self.uploads(harness)
            uploads.htmlConversion = HTMLConverter.Configuration()
            $0.uploads = uploads
        }) { client in
            let facts = try #require(try await client.get("/api/uploads").json as? [String: Any])
            #expect(facts["htmlDocuments"] as? [String] == HTMLConverter.documentExtensions.sorted())
            let reaching = [
                "http://127.0.0.1:\(client.port)/api/documents", "http://127.0.0.1:\(client.port)/api/uploads", "http://localhost:631/",
                "file:///etc/os-release", "https://example.com/",
            ].map { "<iframe src=\"\($0)\" width=600 height=200></iframe><img src=\"\($0)\">" }.joined()
            let page = Data("<!doctype html><meta charset=utf-8><h1>Invoice Heading</h1><p>Total due: 42</p>\(reaching)".utf8)
            for type in ["text/html", "application/pdf"] {
                let before = try Self.kept(harness)
                let answer = try await Self.upload(client, page, type: type)
                #expect(answer.status == .created, "\(type): \(answer.status) \(answer.errorMessage ?? "")")
                let id = try #require((answer.json as? [String: Any])?["id"] as? String)
                let path = "/api/documents/" + id.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
                let lines = ((try await client.get(path + "/pages/0/text").json as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
                let words = lines.flatMap { $0["words"] as? [[String: Any]] ?? [] }.compactMap { $0["text"] as? String }
                #expect(words == ["Invoice", "Heading", "Total", "due:", "42"], "\(type): \(words)")
                #expect(try Self.kept(harness).count == before.count + 1)
            }
        }
        // A time limit of its own for the page that never ends: the pages above may take their time on a busy machine.
        try await harness.run(configure: {
            var uploads = Self.uploads(harness)
            uploads.htmlConversion = HTMLConverter.Configuration(timeLimit: .seconds(2))
            $0.uploads = uploads
        }) { client in
            let before = try Self.kept(harness)
            let looping = try await Self.upload(client, Data("<!doctype html><script>for (;;) {}</script>".utf8), type: "text/html")
            #expect(looping.status == .unprocessableContent && looping.errorCode != nil, "\(looping.status) \(looping.errorMessage ?? "")")
            #expect(!(looping.errorMessage ?? "").contains(harness.folder), "\(looping.errorMessage ?? "")")
            #expect(try Self.kept(harness) == before)
        }
        try await harness.run(configure: { $0.uploads = Self.uploads(harness) }) { client in
            #expect((try await client.get("/api/uploads").json as? [String: Any])?["htmlDocuments"] == nil)
            let refused = try await Self.upload(client, Data("<!doctype html><h1>Invoice</h1>".utf8), type: "text/html")
            #expect(refused.status == .unsupportedMediaType, "\(refused.status)")
        }
    }
}
