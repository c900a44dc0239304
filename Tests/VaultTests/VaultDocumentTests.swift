import Foundation
import RendererProvider
import RendererProviderVault
import Testing
import TestSupport

/// Documents in the encrypted file system, on both engines: they read as the plain file
/// does, a tampered chunk is an error and never pixels, and a whole session (open, render,
/// annotate, save, close) leaves no plaintext byte of the document on disk.
@Suite("Documents in a vault, on every backend")
struct VaultDocumentTests {
    /// A vault holding `fixture` as `books/doc.pdf`.
    struct Library {
        let directory: URL
        let files: VaultFileSystem

        init(_ fixture: String, chunkSize: Int = 4096) throws {
            directory = try Tool.temporaryDirectory()
            files = try VaultFileSystem(root: directory.path, key: VaultKey.generate(), chunkSize: chunkSize)
            try files.createDirectory(at: "books")
            try files.createFile(at: "books/doc.pdf", contents: Data(contentsOf: URL(fileURLWithPath: Fixtures.path(fixture))))
        }

        func remove() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test(arguments: Fixtures.backendIDs)
    func aVaultDocumentReadsAsThePlainFile(backend: String) throws {
        let library = try Library("text.pdf")
        defer { library.remove() }
        let plain = try Fixtures.open("text.pdf", backend: backend)
        let sealed = try Fixtures.registry.open(.stream(library.files.documentStream("books/doc.pdf")), renderer: .id(backend))
        for index in 0..<plain.pageCount {
            #expect(try sealed.render(pageAt: index, options: RenderOptions(dpi: 50)) == plain.render(pageAt: index, options: RenderOptions(dpi: 50)))
            #expect(try sealed.text(pageAt: index) == plain.text(pageAt: index))
        }
    }

    /// A changed byte in each chunk in turn: opening or drawing fails with `tampered`, on
    /// every chunk, and no operation returns pixels or text.
    @Test(arguments: Fixtures.backendIDs)
    func aTamperedChunkIsAnErrorAndNeverPixels(backend: String) throws {
        let library = try Library("colors.pdf", chunkSize: 1024)
        defer { library.remove() }
        let url = library.directory.appendingPathComponent("books/doc.pdf")
        let sealed = try Data(contentsOf: url)
        let chunks = (sealed.count - 64) / (1024 + 28) + 1
        for chunk in 0..<chunks {
            var bytes = sealed
            bytes[64 + chunk * (1024 + 28) + 20] ^= 0x80
            try bytes.write(to: url)
            do {
                let document = try Fixtures.registry.open(.stream(library.files.documentStream("books/doc.pdf")), renderer: .id(backend))
                let error = #expect(throws: RendererError.self, "chunk \(chunk + 1)") { _ = try document.render(pageAt: 0, options: RenderOptions(dpi: 20)) }
                #expect(error?.code == .tampered, "chunk \(chunk + 1): \(error?.description ?? "")")
                #expect((#expect(throws: RendererError.self) { _ = try document.text(pageAt: 0) })?.code == .tampered)
            } catch let error as RendererError {
                #expect(error.code == .tampered, "opening with chunk \(chunk + 1) changed: \(error)")
            }
        }
    }

    /// A string as an engine may write it in a PDF: UTF-8 (or PDFDocEncoding, the same for
    /// these markers), UTF-16BE, or UTF-16BE as a hexadecimal string (Poppler's way).
    static func encodings(of marker: String) -> [Data] {
        let utf16 = marker.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let hex = utf16.map { String(format: "%02x", $0) }.joined()
        return [Data(marker.utf8), Data(utf16), Data(hex.utf8), Data(hex.uppercased().utf8)]
    }

    /// Every file on disk is scanned, after a session that opened, drew, annotated, saved and
    /// closed a vault document, for two markers the plain document holds: the contents of an
    /// annotation it was given before it went into the vault, and of one added in the session.
    @Test(arguments: Fixtures.backendIDs)
    func aSessionLeavesNoPlaintextOnDisk(backend: String) throws {
        let before = "marker-before-\(UUID().uuidString)"
        let during = "marker-during-\(UUID().uuidString)"
        let library = try Library("text.pdf")
        defer { library.remove() }
        // The plain document with the first marker, made in memory and put straight into the vault.
        let scratch = try Tool.temporaryDirectory()
        let plainPath = scratch.appendingPathComponent("plain.pdf").path
        let plain = try Fixtures.open("text.pdf", backend: backend)
        try plain.addAnnotation(Annotation(kind: .text, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20), contents: before))
        try plain.saveCopy(to: plainPath, mode: .incremental)
        let plainBytes = try Data(contentsOf: URL(fileURLWithPath: plainPath))
        #expect(Self.encodings(of: before).contains { plainBytes.range(of: $0) != nil }, "the marker is in the plain document")
        try library.files.createFile(at: "books/doc.pdf", contents: plainBytes)
        try FileManager.default.removeItem(at: scratch)

        let started = Date()
        let session = ReadingSession(
            file: FileState(internalPath: "books/doc.pdf", displayPath: "Book"), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend), fileSystem: library.files))
        try session.open()
        for index in 0..<(try session.pageCount) { _ = try session.render(pageAt: index, options: RenderOptions(dpi: 40)) }
        _ = try session.text(pageAt: 0)
        try session.addAnnotation(Annotation(kind: .square, pageIndex: 1, rect: PageRect(x: 72, y: 72, width: 50, height: 50), contents: during))
        #expect(try session.save() == .saved(path: "books/doc.pdf"))
        #expect(try session.annotations().contains { $0.contents == during })
        session.close()

        let reopened = try Fixtures.registry.open(.stream(library.files.documentStream("books/doc.pdf")), renderer: .id(backend))
        #expect(try Set(reopened.annotations().compactMap(\.contents)).isSuperset(of: [before, during]))
        let markers = Self.encodings(of: before) + Self.encodings(of: during)
        var scanned = 0
        for root in [library.directory, FileManager.default.temporaryDirectory, URL(fileURLWithPath: FileManager.default.currentDirectoryPath)] {
            let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey])
            while let url = walk?.nextObject() as? URL {
                if url.lastPathComponent.hasPrefix(".build") || url.lastPathComponent == ".git" {
                    walk?.skipDescendants()
                    continue
                }
                guard let values = try? url.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey]), values.isRegularFile == true,
                      (values.contentModificationDate ?? .distantPast) >= started.addingTimeInterval(-1) || url.path.hasPrefix(library.directory.path),
                      let data = try? Data(contentsOf: url, options: .mappedIfSafe)
                else { continue }
                scanned += 1
                for marker in markers { #expect(data.range(of: marker) == nil, "\(url.path) holds a marker") }
            }
        }
        #expect(scanned > 0)
    }
}
