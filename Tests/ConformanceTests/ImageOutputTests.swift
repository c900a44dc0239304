import Foundation
import RendererProvider
import Testing
import TestSupport

/// Rendering into kept storage and writing image files straight from it, on every backend.
@Suite("Image output without copies, on every backend")
struct ImageOutputTests {
    /// mixed-sizes.pdf has five pages of different sizes: drawn into one bitmap, the largest
    /// first, every page equals a bitmap drawn on its own and the storage is never replaced.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func oneBitmapServesPageAfterPage(backend: String) throws {
        let document = try Fixtures.open("mixed-sizes.pdf", backend: backend)
        let options = RenderOptions(dpi: 50)
        let areas = try document.pageInfos().map { $0.size.width * $0.size.height }
        let largest = areas.indices.max { areas[$0] < areas[$1] }!
        let order = [largest] + areas.indices.filter { $0 != largest }
        var bitmap = Bitmap()
        var storage: UnsafeRawPointer?
        for index in order {
            try document.render(pageAt: index, options: options, into: &bitmap)
            let address = bitmap.bytes.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            if index == largest { storage = address } else { #expect(address == storage, "page \(index + 1) drew into new storage") }
            #expect(bitmap == (try document.render(pageAt: index, options: options)), "page \(index + 1)")
        }
        // A larger request grows the bitmap; a smaller one after it shrinks it to fit.
        try document.render(pageAt: 0, options: RenderOptions(dpi: 100), into: &bitmap)
        #expect(bitmap == (try document.render(pageAt: 0, options: RenderOptions(dpi: 100))))
        try document.render(pageAt: 0, options: RenderOptions(dpi: 10, pixelFormat: .gray), into: &bitmap)
        #expect(bitmap == (try document.render(pageAt: 0, options: RenderOptions(dpi: 10, pixelFormat: .gray))))
        #expect(bitmap.bytes.count == bitmap.width * bitmap.height)
    }

    /// The file holds what ``Document/encode(_:as:png:)`` makes of the same bitmap, and netpbm's
    /// own decoder reads the PNG back to the same pixels.
    @Test(arguments: Fixtures.conformanceBackendIDs, [ImageFileFormat.png, .pnm, .pam])
    func aWrittenFileHoldsTheEncodedBitmap(backend: String, format: ImageFileFormat) async throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let directory = try Self.scratchDirectory()
        let path = directory + "/page.out"
        let options = RenderOptions(dpi: 40)
        let size = try await document.render(pageAt: 0, options: options, as: format, to: path)
        let bitmap = try await document.render(pageAt: 0, options: options)
        #expect(size == (bitmap.width, bitmap.height))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == document.encode(bitmap, as: format))
        if format == .png {
            #expect(try await Tool.run("pngtopnm", [path]).stdout == bitmap.pnmData())
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["page.out"])
    }

    @Test(arguments: Fixtures.conformanceBackendIDs, [ImageFileFormat.png, .pnm])
    func anUnwritableDirectoryGetsNothing(backend: String, format: ImageFileFormat) async throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let directory = try Self.scratchDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        if access(directory, W_OK) == 0 {
            // Running as root, whom permissions do not stop: make the directory immutable.
            #expect(try await Tool.run("chattr", ["+i", directory]).status == 0, "chattr +i is needed to test this as root")
        }
        defer { _ = try? Tool.runBlocking("chattr", ["-i", directory]) }
        let error = #expect(throws: RendererError.self) {
            try document.render(pageAt: 0, options: RenderOptions(dpi: 20), as: format, to: directory + "/page.out")
        }
        #expect(error?.code == .ioFailure)
        #expect(error?.message.contains(directory) == true, "the message names where it could not write")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// A file that cannot hold the bitmap fails before it is written, leaving the old file.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func alphaAsPNMLeavesTheOldFile(backend: String) throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let directory = try Self.scratchDirectory()
        let path = directory + "/page.ppm"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: RendererError.self) {
            try document.render(pageAt: 0, options: RenderOptions(dpi: 20, pixelFormat: .rgba, background: .transparent), as: .pnm, to: path)
        }
        #expect(error?.code == .invalidArgument)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["page.ppm"])
    }

    static func scratchDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.path
    }
}
