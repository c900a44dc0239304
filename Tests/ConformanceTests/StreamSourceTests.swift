import Foundation
import RendererProvider
import Testing
import TestSupport

/// Documents read through a `DocumentStream` (as an application's file system hands them
/// over) on every backend in this process (an engine process cannot read the application's
/// file system: `IsolatedRenderer` leaves `openStream` out): the same pages, text and
/// annotations as from the file, reads
/// a failing reader's error instead of anything made of missing
/// bytes, and saves written into a file system.
@Suite("Documents read from a stream, on every backend")
struct StreamSourceTests {
    /// A file read by position that can be told to fail from an offset on.
    final class FailingReader: RandomAccessReader, @unchecked Sendable {
        // @unchecked Sendable: used by one engine document (one thread at a time).
        let file: any RandomAccessReader
        let failFrom: Int?

        init(path: String, failFrom: Int? = nil) throws {
            file = try LocalFileSystem().openForReading(path)
            self.failFrom = failFrom
        }

        var length: Int { file.length }

        func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            if let failFrom, offset + buffer.count > failFrom {
                throw RendererError(.tampered, "test reader: bytes from \(failFrom) on are unreadable")
            }
            return try file.read(at: offset, into: buffer)
        }
    }

    static func stream(_ path: String, failFrom: Int? = nil) throws -> DocumentStream {
        let length = try LocalFileSystem().attributes(of: path).size
        return DocumentStream(name: "stream of \(URL(fileURLWithPath: path).lastPathComponent)", length: length) {
            try FailingReader(path: path, failFrom: failFrom)
        }
    }

    @Test(arguments: Fixtures.backendIDs)
    func aStreamReadsAsTheFileDoes(backend: String) throws {
        for name in ["text.pdf", "rotated.pdf", "annotations.pdf", "labels.pdf", "outline.pdf"] {
            let path = Fixtures.path(name)
            let fromFile = try Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
            let fromStream = try Fixtures.conformanceRegistry.open(.stream(Self.stream(path)), renderer: .id(backend))
            #expect(fromStream.pageCount == fromFile.pageCount, "\(name)")
            #expect(try fromStream.pageInfos() == fromFile.pageInfos(), "\(name)")
            #expect(try fromStream.outline() == fromFile.outline(), "\(name)")
            #expect(try fromStream.annotations() == fromFile.annotations(), "\(name)")
            for index in 0..<fromFile.pageCount {
                #expect(try fromStream.text(pageAt: index) == fromFile.text(pageAt: index), "\(name) page \(index + 1) text")
                #expect(try fromStream.render(pageAt: index, options: RenderOptions(dpi: 36)) == fromFile.render(pageAt: index, options: RenderOptions(dpi: 36)),
                        "\(name) page \(index + 1) pixels")
            }
        }
    }

    /// A reader that fails: every operation throws the reader's own error, never pixels or
    /// text made of what the engine could read around the gap.
    @Test(arguments: Fixtures.readingBackendIDs)
    func aFailingReaderIsTheErrorOfEveryOperation(backend: String) throws {
        let path = Fixtures.path("text.pdf")
        let size = try LocalFileSystem().attributes(of: path).size
        for failFrom in [0, size / 3, size - 64] {
            do {
                let document = try Fixtures.conformanceRegistry.open(.stream(Self.stream(path, failFrom: failFrom)), renderer: .id(backend))
                let results: [() throws -> Void] = [
                    { _ = try document.render(pageAt: 0, options: RenderOptions(dpi: 18)) }, { _ = try document.text(pageAt: 1) },
                    { _ = try document.annotations() },
                ]
                for operation in results {
                    #expect((#expect(throws: RendererError.self) { try operation() })?.code == .tampered, "failing from \(failFrom)")
                }
            } catch let error as RendererError {
                #expect(error.code == .tampered, "opening, failing from \(failFrom): \(error)")
            }
        }
    }

    /// A document read from a stream is saved into a file system, incrementally and
    /// rewritten, and read back with its change; the temporary entry is gone.
    @Test(arguments: Fixtures.backendIDs, [SaveMode.incremental, .rewrite])
    func aStreamDocumentSavesIntoAFileSystem(backend: String, mode: SaveMode) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = LocalFileSystem()
        let path = directory.appendingPathComponent("doc.pdf").path
        try files.copy(Fixtures.path("text.pdf"), to: path)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let document = try await Fixtures.conformanceRegistry.open(.stream(files.documentStream(path)), renderer: .id(backend))
        try await document.addAnnotation(Annotation(id: "saved-note", kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20)))
        try document.save(to: path, in: files, mode: mode)
        #expect(try files.contentsOfDirectory(at: directory.path) == ["doc.pdf"])
        let saved = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(saved.starts(with: original) == (mode == .incremental))
        #expect(try await Tool.run("qpdf", ["--check", path]).status == 0)
        #expect(try await document.annotations().map(\.id) == ["saved-note"], "the document goes on as the saved entry")
        for other in Fixtures.conformanceBackendIDs {
            #expect(try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(other)).annotations().map(\.id) == ["saved-note"])
        }
    }
}
