import Foundation
import Testing
import TestSupport

/// `hostapp attachments`, run as a user runs it, on attachments.pdf (make-fixtures.sh).
@Suite("hostapp attachments")
struct AttachmentsCommandTests {
    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func listsAndExtractsWithoutLeavingTheFolder(backend: String) async throws {
        let listed = try await hostapp(["--renderer", backend, "attachments", "list", Fixtures.path("attachments.pdf")])
        #expect(listed.status == 0)
        let numbers: [String] = listed.text.split(separator: "\n").map { String($0.prefix { $0 != " " }) }
        #expect(numbers == ["1:", "2:", "3:"])
        #expect(listed.text.contains("notes.txt  (22 bytes, document)  Reading notes"))
        #expect(listed.text.contains("../../evil.txt  (size unknown, annotation on page 1)"))
        let workspace = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let folder = workspace.appendingPathComponent("a/b").path
        let extracted = try await hostapp(["--renderer", backend, "attachments", "extract", Fixtures.path("attachments.pdf"), "-o", folder])
        #expect(extracted.status == 0, "\(extracted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["data.csv", "evil.txt", "notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: workspace.path) == ["a"], "nothing beside the folder")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/evil.txt")) == Data("escape attempt\n".utf8))
        // An existing file is kept unless --force; a number past the list is refused.
        let again = try await hostapp(["--renderer", backend, "attachments", "extract", Fixtures.path("attachments.pdf"), "-o", folder, "--number", "2"])
        #expect(again.status != 0 && again.stderr.contains("--force"))
        #expect(try await hostapp(["attachments", "extract", Fixtures.path("attachments.pdf"), "-o", folder, "--number", "2", "--force"]).status == 0)
        let past = try await hostapp(["attachments", "extract", Fixtures.path("attachments.pdf"), "-o", folder, "--number", "4"])
        #expect(past.status != 0 && past.stderr.contains("does not exist"))
    }

    /// MuPDF embeds and removes, saved for pdfdetach to see; Poppler refuses to embed and
    /// leaves the file as it was.
    @Test func embedsAndRemoves() async throws {
        let workspace = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: workspace) }
        let file = workspace.appendingPathComponent("doc.pdf").path
        try FileManager.default.copyItem(atPath: Fixtures.path("attachments.pdf"), toPath: file)
        let photo = workspace.appendingPathComponent("photo.jpg").path
        try Data(repeating: 0xAB, count: 3000).write(to: URL(fileURLWithPath: photo))
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let poppler = try await hostapp(["--renderer", "poppler", "attachments", "add", file, photo])
        let after = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(poppler.status != 0 && after == before)
        let added = try await hostapp(["--renderer", "mupdf", "attachments", "add", file, photo, "--description", "A photo"])
        #expect(added.status == 0, "\(added.stderr)")
        let removed = try await hostapp(["--renderer", "mupdf", "attachments", "remove", file, "1"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let names = try await Tool.run("pdfdetach", ["-list", file]).text.split(separator: "\n").dropFirst().map { String($0.drop { $0 != ":" }.dropFirst(2)) }
        #expect(names == ["notes.txt", "photo.jpg", "../../evil.txt"])
        let annotationOne = try await hostapp(["--renderer", "mupdf", "attachments", "remove", file, "3"])
        #expect(annotationOne.status != 0 && annotationOne.stderr.contains("annotation"))
    }
}
