import Foundation
import RendererProvider
import Testing
import TestSupport

/// The files documents embed, on every backend, with Poppler's `pdfdetach` and MuPDF's own
/// tool as witnesses: the same list in the same order, the same bytes, and, where the engine
/// embeds files (MuPDF), additions and removals that other readers see.
@Suite("Attachments, on every backend")
struct AttachmentTests {
    /// attachments.pdf (make-fixtures.sh): data.csv and notes.txt in the name tree, and
    /// ../../evil.txt in a file-attachment annotation on page 1.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func theListIsWhatPdfdetachLists(backend: String) async throws {
        let document = try Fixtures.open("attachments.pdf", backend: backend)
        let attachments = try document.attachments()
        let listed = try await Self.pdfdetachNames(Fixtures.path("attachments.pdf"))
        #expect(attachments.map(\.name) == listed)
        #expect(attachments.map(\.place) == [.document, .document, .annotation])
        #expect(attachments.map(\.pageIndex) == [nil, nil, 0])
        let notes = attachments[1]
        #expect(notes.description == "Reading notes" && notes.size == 22)
        let sum = await Self.md5(Data("Notes on the fixture.\n".utf8))
        #expect(notes.checksum == sum)
        #expect(notes.creationDate == ISO8601DateFormatter().date(from: "2024-01-02T03:04:05Z"))
        #expect(notes.modificationDate == ISO8601DateFormatter().date(from: "2025-06-07T08:09:10Z"))
        #expect(attachments[0].size == nil && attachments[0].checksum == nil && attachments[0].description == nil)
        #expect(attachments[2].description == "A name that climbs" && attachments[2].safeFileName == "evil.txt")
        // The bytes, decoded, as pdfdetach saves them.
        for index in attachments.indices {
            #expect(try await document.attachmentContents(at: index) == (try Self.pdfdetachContents(Fixtures.path("attachments.pdf"), number: index + 1)), "\(index)")
        }
        #expect { try document.attachmentContents(at: 3) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        #expect { try document.attachmentContents(at: -1) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        #expect(try Fixtures.open("text.pdf", backend: backend).attachments().isEmpty)
    }

    /// MuPDF embeds a file and removes one; the saved file, read by Poppler and pdfdetach,
    /// holds exactly that. Poppler cannot (poppler-glib has no call that embeds a file) and
    /// says so, changing nothing.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func embeddingAndRemovingAreSavedForOtherReaders(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let saved = folder.appendingPathComponent("saved.pdf").path
        let document = try Fixtures.open("attachments.pdf", backend: backend)
        let photo = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        guard Fixtures.engineID(backend) == "mupdf" else {
            #expect { try document.addAttachment(name: "photo.bin", contents: photo) } throws: { ($0 as? RendererError)?.code == .unsupported }
            #expect(try document.attachments().count == 3)
            return
        }
        let modified = Date(timeIntervalSince1970: 1_700_000_000)
        try document.addAttachment(name: "photo.bin", contents: photo, description: "A photo", modificationDate: modified)
        #expect { try document.addAttachment(name: "notes.txt", contents: photo) } throws: { ($0 as? RendererError)?.code == .conflict }
        #expect { try document.addAttachment(name: "", contents: photo) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        #expect { try document.removeAttachment(at: 3) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        try document.removeAttachment(at: 0)  // data.csv
        try document.save(to: saved)
        let names = ["notes.txt", "photo.bin", "../../evil.txt"]
        #expect(try await Self.pdfdetachNames(saved) == names)
        #expect(try await Self.pdfdetachContents(saved, number: 2) == photo)
        let reread = try await Fixtures.conformanceRegistry.open(.file(saved), renderer: .id("poppler")).attachments()
        #expect(reread.map(\.name) == names)
        let photoSum = await Self.md5(photo)
        #expect(reread[1].size == photo.count && reread[1].checksum == photoSum && reread[1].description == "A photo")
        #expect(reread[1].modificationDate == modified)
        #expect(try await Tool.run("qpdf", ["--check", saved]).status == 0)
        // The annotation's attachment goes with its annotation only.
        let again = try await Fixtures.conformanceRegistry.open(.file(saved), renderer: .id("mupdf"))
        #expect { try again.removeAttachment(at: 2) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
    }

    /// A document that forbids changes embeds nothing.
    @Test func aDocumentThatForbidsChangesEmbedsNothing() throws {
        let document = try Fixtures.open("encrypted.pdf", backend: "mupdf", password: "user-secret")
        #expect { try document.addAttachment(name: "x.txt", contents: Data("x".utf8)) } throws: { ($0 as? RendererError)?.code == .notPermitted }
    }

    @Test func aSafeFileNameNeverLeavesTheFolder() {
        let cases: [(String, String?)] = [
            ("notes.txt", "notes.txt"), ("../../evil.txt", "evil.txt"), ("/etc/passwd", "passwd"), ("..\\..\\win.ini", "win.ini"),
            ("..", nil), (".", nil), ("", nil), ("a/", "a"), ("bell\u{7}.txt", "bell.txt"), ("../..", nil),
        ]
        for (name, expected) in cases {
            #expect(Attachment(name: name).safeFileName == expected, "\(name)")
        }
    }

    /// `pdfdetach -list`'s names, in its order.
    static func pdfdetachNames(_ path: String) async throws -> [String] {
        try await Tool.run("pdfdetach", ["-list", path]).text.split(separator: "\n").dropFirst().map { line in
            String(line.drop { $0 != ":" }.dropFirst(2))
        }
    }

    /// The bytes `pdfdetach -save number` writes (to a path of the test's choosing: never the
    /// attachment's own name, which may climb out of the folder).
    static func pdfdetachContents(_ path: String, number: Int) async throws -> Data {
        let out = NSTemporaryDirectory() + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: out) }
        _ = try await Tool.run("pdfdetach", ["-save", String(number), "-o", out, path])
        return try Data(contentsOf: URL(fileURLWithPath: out))
    }

    static func md5(_ data: Data) async -> String {
        let path = NSTemporaryDirectory() + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = FileManager.default.createFile(atPath: path, contents: data)
        return (try? await Tool.run("md5sum", [path]).text.split(separator: " ").first.map(String.init) ?? "") ?? ""
    }
}
