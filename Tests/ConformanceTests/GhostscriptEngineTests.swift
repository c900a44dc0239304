import Foundation
import GhostscriptRenderer
import MuPDFRenderer
import RendererProvider
import Testing
import TestSupport

/// The third engine, Ghostscript, through the same API as the other two: what it declares it
/// does, checked against Ghostscript's own command (`gs`) as the witness and against MuPDF's
/// page facts; what it declares it does not do, refused as `unsupported`.
struct GhostscriptEngineTests {
    static let registry = RendererRegistry([MuPDFRenderer(), GhostscriptRenderer()])

    static func open(_ name: String, password: String? = nil) throws -> Document {
        try registry.open(.file(Fixtures.path(name)), password: password, renderer: .id("ghostscript"))
    }

    @Test func pageFactsAreMuPDFs() throws {
        for name in ["rotated.pdf", "cropbox.pdf", "mixed-sizes.pdf", "boxes.pdf", "text.pdf"] {
            let ghostscript = try Self.open(name)
            let mupdf = try Self.registry.open(.file(Fixtures.path(name)), renderer: .id("mupdf"))
            #expect(ghostscript.pageCount == mupdf.pageCount, "\(name)")
            for (gs, mu) in zip(try ghostscript.pageInfos(), try mupdf.pageInfos()) {
                #expect(abs(gs.size.width - mu.size.width) < 0.01 && abs(gs.size.height - mu.size.height) < 0.01, "\(name) page \(mu.index + 1)")
                #expect(gs.rotation == mu.rotation, "\(name) page \(mu.index + 1)")
                let (ours, theirs) = (try ghostscript.pageSpace(pageAt: gs.index), try mupdf.pageSpace(pageAt: mu.index))
                let corners = [ours.cropBox.x0 - theirs.cropBox.x0, ours.cropBox.y0 - theirs.cropBox.y0, ours.cropBox.x1 - theirs.cropBox.x1, ours.cropBox.y1 - theirs.cropBox.y1]
                #expect(ours.rotation == theirs.rotation && corners.allSatisfy { abs($0) < 0.01 }, "\(name) page \(mu.index + 1)")
            }
        }
    }

    @Test func aClipIsThatPartOfThePage() throws {
        let document = try Self.open("rotated.pdf")
        for index in 0..<document.pageCount {
            let whole = try document.render(pageAt: index, options: RenderOptions(dpi: 72))
            let clip = PageRect(x: 50, y: 70, width: 120, height: 90)
            let part = try document.render(pageAt: index, options: RenderOptions(dpi: 72, clip: clip))
            #expect(part.width == 120 && part.height == 90)
            for y in 0..<part.height {
                #expect(Array(part.row(y)) == Array(Array(whole.row(y + 70))[(50 * 3)..<(170 * 3)]), "page \(index + 1) row \(y)")
            }
        }
    }

    @Test func grayRGBAAndABackgroundAreDrawn() throws {
        let document = try Self.open("colors.pdf")
        let rgb = try document.render(pageAt: 0, options: RenderOptions(dpi: 30))
        let rgba = try document.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: .rgba))
        let sameRed = stride(from: 0, to: rgb.bytes.count, by: 3).allSatisfy { (i: Int) -> Bool in rgb.bytes[i] == rgba.bytes[i / 3 * 4] }
        let opaque = stride(from: 3, to: rgba.bytes.count, by: 4).allSatisfy { (i: Int) -> Bool in rgba.bytes[i] == 255 }
        #expect(sameRed)
        #expect(opaque)
        let gray = try document.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: .gray))
        #expect(gray.bytes.count == rgb.width * rgb.height && Set(gray.bytes).count > 2)
        // A page image is white where nothing is drawn; with a background, that colour.
        let tinted = try document.render(pageAt: 0, options: RenderOptions(dpi: 30, background: Color(red: 0, green: 0, blue: 1)))
        #expect(rgb.pixel(x: 0, y: 0) == [255, 255, 255])
        #expect(tinted.pixel(x: 0, y: 0) == [0, 0, 255])
        let error = #expect(throws: RendererError.self) {
            try document.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: .rgba, background: .transparent))
        }
        #expect(error?.code == .unsupported)
    }

    @Test(arguments: ["sample", "text.pdf", "rotated.pdf", "search.pdf"])
    func textIsGhostscriptsTxtwrite(name: String) async throws {
        let path = name == "sample" ? Fixtures.samplePath : Fixtures.path(name)
        let document = try await Self.registry.open(.file(path), renderer: .id("ghostscript"))
        for index in 0..<document.pageCount {
            let witness = try await Tool.run("gs", [
                "-q", "-dSAFER", "-dBATCH", "-dNOPAUSE", "-sDEVICE=txtwrite", "-dUseCropBox",
                "-dFirstPage=\(index + 1)", "-dLastPage=\(index + 1)", "-sOutputFile=-", path,
            ])
            let text = try await document.text(pageAt: index)
            #expect(Fixtures.normalizedWhitespace(text) == Fixtures.normalizedWhitespace(witness.text), "\(name) page \(index + 1)")
            let characters = try await document.textPage(pageAt: index).characters.map(\.text).joined()
            #expect(
                Fixtures.normalizedWhitespace(characters).replacingOccurrences(of: " ", with: "")
                    == Fixtures.normalizedWhitespace(text).replacingOccurrences(of: " ", with: ""), "\(name) page \(index + 1)")
        }
    }

    /// Each character's box is where MuPDF puts the same character, within a few points
    /// across the line (txtwrite rounds to whole points) and on the same line.
    @Test func characterBoxesLieWhereMuPDFsDo() throws {
        for name in ["text.pdf", "rotated.pdf"] {
            let ghostscript = try Self.open(name)
            let mupdf = try Self.registry.open(.file(Fixtures.path(name)), renderer: .id("mupdf"))
            for index in 0..<ghostscript.pageCount {
                let ours = try ghostscript.textPage(pageAt: index).characters.filter { !$0.isWhitespace }
                let theirs = try mupdf.textPage(pageAt: index).characters.filter { !$0.isWhitespace }
                #expect(ours.map(\.text) == theirs.map(\.text), "\(name) page \(index + 1)")
                for (gs, mu) in zip(ours, theirs) {
                    let (a, b) = (gs.quad.bounds, mu.quad.bounds)
                    let overlaps = a.minX < b.maxX + 2 && b.minX < a.maxX + 2 && a.minY < b.maxY && b.minY < a.maxY
                    #expect(overlaps, "\(name) page \(index + 1) '\(gs.text)': \(a) against \(b)")
                }
            }
        }
    }

    @Test func passwordsOpenAndAWrongOneIsRefusedWithoutACrash() throws {
        let required = #expect(throws: RendererError.self) { try Self.open("encrypted.pdf") }
        #expect(required?.code == .passwordRequired)
        // Encrypted with an empty user password: the check in a child process opens it.
        #expect(try Self.open("restricted.pdf").pageCount > 0)
        // Ghostscript 10.0 itself crashes on a wrong password; this process must not.
        for (name, password) in [("encrypted.pdf", "not-the-password"), ("restricted.pdf", "wrong"), ("encrypted.pdf", "user-secret)")] {
            let wrong = #expect(throws: RendererError.self) { try Self.open(name, password: password) }
            #expect(wrong?.code == .wrongPassword, "\(name) with \(password)")
        }
        for password in ["user-secret", "owner-secret"] {
            let document = try Self.open("encrypted.pdf", password: password)
            #expect(document.pageCount == 3)
            #expect(try Fixtures.normalizedWhitespace(document.text(pageAt: 0)).isEmpty == false)
            #expect(try document.render(pageAt: 0, options: RenderOptions(dpi: 20)).bytes.contains { $0 != 255 })
        }
    }

    @Test func memoryAndStreamSourcesReadAsTheFileDoes() throws {
        let path = Fixtures.path("rotated.pdf")
        let file = try Self.open("rotated.pdf")
        let memory = try Self.registry.open(.memory(Data(contentsOf: URL(fileURLWithPath: path))), renderer: .id("ghostscript"))
        let stream = try Self.registry.open(.stream(LocalFileSystem().documentStream(path)), renderer: .id("ghostscript"))
        for other in [memory, stream] {
            #expect(try other.pageInfos() == file.pageInfos())
            for index in 0..<file.pageCount {
                #expect(try other.render(pageAt: index, options: RenderOptions(dpi: 20)) == file.render(pageAt: index, options: RenderOptions(dpi: 20)))
                #expect(try other.text(pageAt: index) == file.text(pageAt: index))
            }
        }
    }

    @Test func damagedAndForeignFilesAreRefused() throws {
        let foreign = #expect(throws: RendererError.self) { try Self.open("not-a-pdf.pdf") }
        #expect(foreign?.code == .unsupportedFormat)
        let empty = #expect(throws: RendererError.self) { try Self.open("no-pages.pdf") }
        #expect(empty?.code == .damaged)
        // A page Ghostscript cannot read is refused as damaged; the others are drawn.
        let truncated = try Self.open("truncated.pdf")
        var drawn = 0
        for index in 0..<truncated.pageCount {
            do {
                _ = try truncated.render(pageAt: index, options: RenderOptions(dpi: 10))
                drawn += 1
            } catch let error as RendererError {
                #expect(error.code == .damaged, "page \(index + 1): \(error)")
            }
        }
        #expect(drawn >= 1)
        let missing = #expect(throws: RendererError.self) {
            try Self.registry.open(.file("/nonexistent/file.pdf"), renderer: .id("ghostscript"))
        }
        #expect(missing?.code == .fileNotFound)
    }

    @Test func whatItDoesNotDoIsUnsupported() throws {
        let document = try Self.open("annotations.pdf")
        let calls: [(String, () throws -> Void)] = [
            ("info", { _ = try document.info() }),
            ("outline", { _ = try document.outline() }),
            ("links", { _ = try document.links(pageAt: 0) }),
            ("annotations", { _ = try document.annotations(pageAt: 0) }),
            ("form", { _ = try document.formFields() }),
        ]
        for (name, call) in calls {
            let error = #expect(throws: RendererError.self, "\(name)") { try call() }
            #expect(error?.code == .unsupported, "\(name)")
            #expect(error?.rendererID == "ghostscript", "\(name)")
        }
    }

    /// `auto` stays MuPDF, then Poppler: Ghostscript is chosen by name only, even first in the list.
    @Test func autoNeverChoosesGhostscript() throws {
        let registry = RendererRegistry([GhostscriptRenderer(), MuPDFRenderer()])
        #expect(try registry.open(.file(Fixtures.samplePath)).rendererID == "mupdf")
        let alone = RendererRegistry([GhostscriptRenderer()])
        let error = #expect(throws: RendererError.self) { try alone.open(.file(Fixtures.samplePath)) }
        #expect(error?.code == .unsupported)
    }

    /// Ghostscript runs one at a time in a process: documents drawn and read from four
    /// threads at once give what each gives alone.
    @Test func documentsUsedFromSeveralThreadsGiveWhatEachGivesAlone() throws {
        let names = ["text.pdf", "rotated.pdf", "colors.pdf", "mixed-sizes.pdf"]
        let alone = try names.map { name in
            let document = try Self.open(name)
            return (try document.render(pageAt: 0, options: RenderOptions(dpi: 30)), try document.text(pageAt: 0))
        }
        let together = Locked<[Int: (Bitmap, String)]>([:])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: names.count * 2) { iteration in
            let index = iteration % names.count
            do {
                let document = try Self.open(names[index])
                let result = (try document.render(pageAt: 0, options: RenderOptions(dpi: 30)), try document.text(pageAt: 0))
                together.withLock { $0[iteration] = result }
            } catch {
                failures.withLock { $0.append("\(names[index]): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        for (iteration, result) in together.withLock({ $0 }) {
            let expected = alone[iteration % names.count]
            #expect(result.0 == expected.0 && result.1 == expected.1, "\(names[iteration % names.count])")
        }
    }

    @Test func aCancelledDrawingStops() throws {
        let document = try Self.open("text.pdf")
        let cancellation = Cancellation()
        cancellation.cancel()
        let error = #expect(throws: RendererError.self) {
            try document.render(pageAt: 0, options: RenderOptions(dpi: 72), cancellation: cancellation)
        }
        #expect(error?.code == .cancelled)
    }
}
