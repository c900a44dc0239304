import Foundation
import HTTPTypes
import RendererProvider
import Testing
import TestSupport

/// Protected and unprotected copies as downloads, against the real server: qpdf and pdfinfo
/// read the passwords and permissions asked for; the served file stays as it was; an
/// encrypted document's owner password is needed to change its protection; the token, the
/// settings and hostile bodies are answered as the API says, without a password or a path
/// of the server in any answer. Serialized: one test counts the copies' temporary folders.
@Suite(.serialized) struct ServerProtectionTests {
    static func body(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object)
    }

    /// The copy's bytes in a file of their own, for the witnesses.
    static func stored(_ answer: ServerResponse, in directory: URL, as name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try answer.data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aProtectedCopyIsADownloadWithThePasswordsAsked() async throws {
        let harness = try ServerHarness()
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = harness.docs + "/text.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: served))
        try await harness.run { client in
            let document = documentPath("text.pdf")
            let answer = try await client.send(
                .post, document + "/protected",
                body: Self.body(["ownerPassword": "Ownér-secret", "userPassword": "reader", "permissions": ["print", "copy"]]))
            #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
            #expect(answer.headers[.contentType] == "application/pdf")
            #expect(answer.headers[.contentDisposition]?.contains("text-protected.pdf") == true)
            let path = try Self.stored(answer, in: directory, as: "protected.pdf")
            let shown = try await Tool.run("qpdf", ["--show-encryption", "--password=Ownér-secret", path]).text
            #expect(shown.contains("R = 6") && shown.contains("Supplied password is owner password"), "\(shown)")
            #expect(shown.contains("print low resolution: allowed") && shown.contains("extract for any purpose: allowed"), "\(shown)")
            #expect(shown.contains("modify annotations: not allowed") && shown.contains("print high resolution: not allowed"), "\(shown)")
            #expect(try await Tool.run("pdfinfo", [path]).status != 0)
            #expect(try await Tool.run("pdfinfo", ["-upw", "reader", path]).status == 0)

            let older = try await client.send(.post, document + "/protected", body: Self.body(["ownerPassword": "o", "method": "aes-128"]))
            #expect(older.status == .ok, "\(older.status) \(older.errorMessage ?? "")")
            let olderShown = try await Tool.run("qpdf", ["--show-encryption", try Self.stored(older, in: directory, as: "older.pdf")]).text
            #expect(olderShown.contains("R = 4") && olderShown.contains("AESv2"), "\(olderShown)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: served)) == before)
    }

    /// Unlocked with the user password, an encrypted document's protection stays (403);
    /// unlocked with the owner password, the copy has none and the same text. Each request
    /// is judged by its own key, whoever unlocked the document before or after.
    @Test func changingAnEncryptedDocumentsProtectionNeedsItsOwnersPassword() async throws {
        let harness = try ServerHarness(extra: ["encrypted.pdf"])
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await harness.run { client in
            let document = documentPath("encrypted.pdf")
            func key(_ password: String) async throws -> HTTPFields {
                let unlocked = try await client.send(.post, document + "/unlock", body: Self.body(["password": password]))
                let key = try #require((unlocked.json as? [String: Any])?["key"] as? String)
                var fields = ServerHarness.authorization
                fields[HTTPField.Name("Document-Key")!] = key
                fields[.contentType] = "application/json"
                return fields
            }
            let locked = try await client.send(.post, document + "/unprotected", body: Data())
            #expect(locked.status == .unprocessableContent && locked.errorCode == "password-required", "\(locked.status)")
            let reader = try await key("user-secret")
            let refused = try await client.execute(uri: document + "/unprotected", method: .post, headers: reader)
            #expect(refused.status == .forbidden && refused.errorCode == "not-permitted", "\(refused.status) \(refused.errorMessage ?? "")")
            let reprotect = try await client.execute(uri: document + "/protected", method: .post, headers: reader, body: Self.body(["ownerPassword": "mine"]))
            #expect(reprotect.status == .forbidden, "\(reprotect.status)")
            let owner = try await key("owner-secret")
            let plain = try await client.execute(uri: document + "/unprotected", method: .post, headers: owner)
            #expect(plain.status == .ok, "\(plain.status) \(plain.errorMessage ?? "")")
            // The owner's unlock lends a reader with the user password nothing.
            let after = try await client.execute(uri: document + "/unprotected", method: .post, headers: reader)
            #expect(after.status == .forbidden && after.errorCode == "not-permitted", "\(after.status)")
            let path = try Self.stored(plain, in: directory, as: "plain.pdf")
            let info = try await Tool.run("pdfinfo", [path]).text
            #expect(info.split(separator: "\n").contains { $0.hasPrefix("Encrypted:") && $0.hasSuffix(" no") }, "\(info)")
            let original = try await Tool.run("pdftotext", ["-opw", "owner-secret", Fixtures.path("encrypted.pdf"), "-"]).text
            #expect(try await Tool.run("pdftotext", [path, "-"]).text == original)
        }
    }

    /// An optimised copy is a download qpdf finds linearised and packed into object streams,
    /// with the served file's text; the file stays as it was. An encrypted document's copy
    /// needs the request's key and stays encrypted.
    @Test func anOptimizedCopyIsALinearisedDownload() async throws {
        let harness = try ServerHarness(extra: ["encrypted.pdf"])
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = harness.docs + "/text.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: served))
        try await harness.run { client in
            let answer = try await client.send(.post, documentPath("text.pdf") + "/optimized", body: Data())
            #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
            #expect(answer.headers[.contentDisposition]?.contains("text-optimized.pdf") == true)
            let path = try Self.stored(answer, in: directory, as: "optimized.pdf")
            let linearization = try await Tool.run("qpdf", ["--check-linearization", path])
            #expect(linearization.status == 0 && linearization.text.contains("no linearization errors"), "\(linearization.text)")
            #expect(try await Tool.run("qpdf", ["--show-xref", path]).text.contains("compressed; stream = "))
            #expect(try await Tool.run("pdftotext", [path, "-"]).text == Tool.run("pdftotext", [served, "-"]).text)

            let encrypted = documentPath("encrypted.pdf")
            let locked = try await client.send(.post, encrypted + "/optimized", body: Data())
            #expect(locked.status != .ok && locked.errorCode != nil, "\(locked.status)")
            let unlocked = try await client.send(.post, encrypted + "/unlock", body: Self.body(["password": "user-secret"]))
            let key = try #require((unlocked.json as? [String: Any])?["key"] as? String)
            var headers = ServerHarness.authorization
            headers[HTTPField.Name("Document-Key")!] = key
            let copy = try await client.execute(uri: encrypted + "/optimized", method: .post, headers: headers)
            #expect(copy.status == .ok, "\(copy.status)")
            let shown = try await Tool.run("qpdf", ["--show-encryption", "--password=user-secret", try Self.stored(copy, in: directory, as: "encrypted.pdf")]).text
            #expect(shown.contains("R = 6"), "\(shown)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: served)) == before)
    }

    /// `imageDPI` and `jpegQuality` reach the optimiser: a page holding a 1,600 x 2,000 JPEG
    /// (ImageMagick's plasma, seeded; at least 181 dpi on letter paper) comes back with its
    /// picture near 100 dpi where pdfimages finds it drawn, and smaller. An option that is not
    /// a number is 400, one out of range 422, each with its JSON error.
    @Test func anOptimizedCopyResamplesImagesWhenAsked() async throws {
        let harness = try ServerHarness()
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let picture = directory.appendingPathComponent("scan.jpg").path
        #expect(try await Tool.run("convert", ["-size", "1600x2000", "-seed", "7", "plasma:red-blue", "-quality", "90", picture]).status == 0)
        try Fixtures.registry.writePDF(fromPictures: [.file(picture)], layout: ImagePageLayout(paper: PageSize(width: 612, height: 792)), to: harness.docs + "/scan.pdf")
        try await harness.run { client in
            let answer = try await client.send(.post, documentPath("scan.pdf") + "/optimized?imageDPI=100&jpegQuality=60", body: Data())
            #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
            let path = try Self.stored(answer, in: directory, as: "small.pdf")
            let listed = try await Tool.run("pdfimages", ["-list", path]).text.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
            try #require(listed.count == 1, "\(listed)")
            let (xPPI, yPPI) = (Double(listed[0][12]) ?? 0, Double(listed[0][13]) ?? 0)
            #expect((100...110).contains(xPPI) && (100...110).contains(yPPI), "\(listed[0])")
            #expect(answer.data.count * 4 < (try FileManager.default.attributesOfItem(atPath: harness.docs + "/scan.pdf")[.size] as! Int))

            for (query, status) in [("imageDPI=fine", HTTPResponse.Status.badRequest), ("imageDPI=0", .unprocessableContent), ("jpegQuality=101", .unprocessableContent)] {
                let refused = try await client.send(.post, documentPath("scan.pdf") + "/optimized?" + query, body: Data())
                #expect(refused.status == status && refused.errorCode != nil, "\(query): \(refused.status)")
            }
        }
    }

    /// A stamped copy is a download whose pages carry the stamps as text pdftotext reads, in
    /// Latin and Arabic script, the served file untouched; a body that names a font file has
    /// it ignored (a client names no file of the server's); bodies that cannot be drawn get
    /// their status and a JSON error, and the token is needed.
    @Test func aStampedCopyCarriesItsTextAndHostileStampsAreRefused() async throws {
        let harness = try ServerHarness()
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let served = harness.docs + "/text.pdf"
        let before = try Data(contentsOf: URL(fileURLWithPath: served))
        try await harness.run { client in
            let route = documentPath("text.pdf") + "/stamped"
            let answer = try await client.send(.post, route, body: Self.body([
                "text": "DRAFT", "rotation": 0, "footer": "سري — {page}/{pages}", "bates": ["prefix": "ACME", "start": 41], "pages": [0, 2],
                "fontPath": "/etc/passwd",
            ]))
            #expect(answer.status == .ok, "\(answer.status) \(answer.errorMessage ?? "")")
            #expect(answer.headers[.contentDisposition]?.contains("text-stamped.pdf") == true)
            let path = try Self.stored(answer, in: directory, as: "stamped.pdf")
            let first = try await Tool.run("pdftotext", ["-f", "1", "-l", "1", path, "-"]).text
            let second = try await Tool.run("pdftotext", ["-f", "2", "-l", "2", path, "-"]).text
            let third = try await Tool.run("pdftotext", ["-f", "3", "-l", "3", path, "-"]).text
            #expect(first.contains("DRAFT") && first.contains("سري") && first.contains("1/3") && first.contains("ACME000041"), "\(first)")
            #expect(!second.contains("DRAFT") && !second.contains("ACME"), "\(second)")
            #expect(third.contains("3/3") && third.contains("ACME000042"), "\(third)")

            let anonymous = try await client.execute(uri: route, method: .post, headers: [.contentType: "application/json"], body: Self.body(["text": "A"]))
            #expect(anonymous.status == .unauthorized)
            let cases: [(Data, HTTPResponse.Status, String)] = [
                (Data("not json".utf8), .badRequest, "not-json"),
                (Self.body(["text": 7]), .badRequest, "a number"),
                (Self.body(["placement": "sideways", "text": "A"]), .badRequest, "an unknown placement"),
                (Self.body([:]), .unprocessableContent, "no stamp"),
                (Self.body(["text": " "]), .unprocessableContent, "empty"),
                (Self.body(["text": "A", "fontSize": 0]), .unprocessableContent, "size 0"),
                (Self.body(["text": "A", "opacity": 1.5]), .unprocessableContent, "opacity 1.5"),
                (Self.body(["text": "A", "color": "red"]), .unprocessableContent, "a colour name"),
                (Self.body(["text": "\u{0378}"]), .unprocessableContent, "an unassigned character"),
                (Self.body(["footer": "{bates}"]), .unprocessableContent, "{bates} without numbers"),
                (Self.body(["header": "A", "margin": -1]), .unprocessableContent, "a negative margin"),
                (Self.body(["text": String(repeating: "A", count: 10_001)]), .unprocessableContent, "too long"),
            ]
            for (body, status, what) in cases {
                let refused = try await client.send(.post, route, body: body)
                #expect(refused.status == status && refused.errorCode != nil, "\(what): \(refused.status) \(refused.errorMessage ?? "")")
                #expect(!String(decoding: refused.data, as: UTF8.self).contains(harness.folder), "\(what)")
            }
            let beyond = try await client.send(.post, route, body: Self.body(["text": "A", "pages": [3]]))
            #expect(beyond.status.code / 100 == 4 && beyond.errorCode != nil, "\(beyond.status)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: served)) == before)
    }

    /// What an unfriendly client sends: no token, settings without downloads, bodies that are
    /// not the schema's, passwords the standard cannot carry. Each gets its status and a JSON
    /// error that repeats neither the passwords nor the server's folder; nothing is left in
    /// the temporary folder.
    @Test func hostileRequestsAreRefusedWithTheirStatus() async throws {
        let harness = try ServerHarness()
        var settings = DocumentSettings()
        settings[.saveTo] = FeatureSetting(available: false, enabled: false)
        let temporary = FileManager.default.temporaryDirectory.path
        let copiesBefore = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("renderer-copy-") }
        try await harness.run { client in
            let route = documentPath("text.pdf") + "/protected"
            let anonymous = try await client.execute(
                uri: route, method: .post, headers: [.contentType: "application/json"], body: Self.body(["ownerPassword": "o"]))
            #expect(anonymous.status == .unauthorized)
            let cases: [(Data, HTTPResponse.Status, String)] = [
                (Data("not json".utf8), .badRequest, "not-json"),
                (Self.body([:]), .badRequest, "no owner password"),
                (Self.body(["ownerPassword": 7]), .badRequest, "a number"),
                (Self.body(["ownerPassword": ""]), .unprocessableContent, "empty"),
                (Self.body(["ownerPassword": "same-secret", "userPassword": "same-secret"]), .unprocessableContent, "same twice"),
                (Self.body(["ownerPassword": String(repeating: "é", count: 100)]), .unprocessableContent, "200 bytes"),
                (Self.body(["ownerPassword": "o", "permissions": ["print", "teleport"]]), .unprocessableContent, "unknown permission"),
                (Self.body(["ownerPassword": "o", "method": "rc4"]), .badRequest, "an unknown method"),
                (Self.body(["ownerPassword": "o", "userPassword": "密码", "method": "aes-128"]), .unprocessableContent, "not Latin-1"),
            ]
            for (body, status, what) in cases {
                let answer = try await client.send(.post, route, body: body)
                #expect(answer.status == status && answer.errorCode != nil, "\(what): \(answer.status) \(answer.errorMessage ?? "")")
                let text = String(decoding: answer.data, as: UTF8.self)
                #expect(!text.contains("same-secret") && !text.contains(harness.folder) && !text.contains("%PDF"), "\(what): \(text)")
            }
            let missing = try await client.send(.post, documentPath("nothing-here.pdf") + "/protected", body: Self.body(["ownerPassword": "o"]))
            #expect(missing.status == .notFound)
        }
        try await harness.run(configure: { $0.settings = settings }) { client in
            for route in ["/protected", "/unprotected", "/optimized", "/stamped"] {
                let answer = try await client.send(.post, documentPath("text.pdf") + route, body: Self.body(["ownerPassword": "o"]))
                #expect(answer.status == .forbidden && answer.errorCode == "not-permitted", "\(route): \(answer.status)")
            }
        }
        let copiesAfter = try FileManager.default.contentsOfDirectory(atPath: temporary).filter { $0.hasPrefix("renderer-copy-") }
        #expect(Set(copiesAfter).subtracting(copiesBefore).isEmpty)
    }
}
