import Foundation
import RendererPrinting
import RendererProvider
import TestSupport
import Testing

/// Printing against a real CUPS scheduler on loopback (``CUPSServer``): what the printer
/// received is read from the server's spool, and its job attributes through `ipptool`; the
/// documents are checked with pdfinfo, pypdf, pdftoppm and cups-filters' `rastertopdf`.
@Suite struct PrintingTests {
    /// A session on `fixture` with `settings`.
    static func session(_ fixture: String, backend: String, settings: DocumentSettings = DocumentSettings()) throws -> ReadingSession {
        let session = ReadingSession(
            file: FileState(internalPath: Fixtures.path(fixture)), registry: Fixtures.registry,
            configuration: SessionConfiguration(renderer: .id(backend), settings: settings))
        try session.open()
        return session
    }

    /// A print server with one queue of `kind`, the service that prints there, and a
    /// session on text.pdf.
    static func printing(to kind: CUPSServer.QueueKind, backend: String) async throws -> (CUPSServer, PrintService, ReadingSession) {
        let cups = try await CUPSServer.start()
        try await cups.addQueue(kind == .pdf ? "office" : "raster", kind)
        return (cups, PrintService(server: cups.address), try session("text.pdf", backend: backend))
    }

    /// A scratch folder for one test.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("printing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A PDF printer gets the document itself with the changes not yet saved, the options as
    /// the job's attributes (copies, page-ranges, sides, colour mode, the file's name), and
    /// the job completes.
    @Test(arguments: Fixtures.backendIDs)
    func aPDFPrinterGetsTheDocumentWithItsChangesAndOptions(backend: String) async throws {
        let (cups, service, session) = try await Self.printing(to: .pdf, backend: backend)
        defer { session.close() }
        try session.addAnnotation(Annotation(id: "printed-note", kind: .square, pageIndex: 0, rect: PageRect(x: 100, y: 100, width: 200, height: 80)))
        let job = try session.print(
            options: PrintOptions(printer: "office", pages: [2, 0], copies: 2, sides: .longEdge, grayscale: true), through: service)
        #expect(job.documentFormat == "application/pdf" && job.pageCount == 2 && job.printer == "office")
        try await service.waitUntilFinished(job)

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let received = folder.appendingPathComponent("received.pdf")
        try cups.spooledDocument(job: job.id).write(to: received)
        let info = try await Tool.run("pdfinfo", [received.path]).text
        #expect(info.contains("Pages:           3"), "\(info)")
        func sizes(_ path: String) async throws -> [Substring] {
            try await Tool.run("pdfinfo", ["-f", "1", "-l", "3", path]).text.split(separator: "\n").filter { $0.hasPrefix("Page ") && $0.contains("size") }
        }
        let (sent, printed) = (try await sizes(Fixtures.path("text.pdf")), try await sizes(received.path))
        #expect(printed == sent && !printed.isEmpty, "the pages at their sizes")
        let annotations = try await Tool.run("python3", ["-c", "import pypdf,sys; a=pypdf.PdfReader(sys.argv[1]).pages[0].get('/Annots'); print(len(a.get_object()) if a else 0)", received.path])
        #expect(annotations.text.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "the unsaved square went with it: \(annotations.text) \(annotations.stderr)")
        let attributes = try await cups.jobAttributes(job.id)
        #expect(attributes["copies"] == "2" && attributes["page-ranges"] == "1-1,3-3", "\(attributes)")
        #expect(attributes["sides"] == "two-sided-long-edge" && attributes["print-color-mode"] == "monochrome", "\(attributes)")
        #expect(attributes["job-name"] == "text.pdf" && attributes["job-state"] == "completed", "\(attributes)")
    }

    /// A printer that takes no PDF gets the chosen pages drawn at its resolution (150 dpi
    /// here) as PWG raster: rastertopdf reads two Letter pages, and the first looks as
    /// pdftoppm draws the document's first page.
    @Test(arguments: Fixtures.backendIDs)
    func aRasterPrinterGetsThePagesDrawnAtItsResolution(backend: String) async throws {
        let (cups, service, session) = try await Self.printing(to: .raster, backend: backend)
        defer { session.close() }
        let job = try session.print(options: PrintOptions(printer: "raster", pages: [0, 2], grayscale: true), through: service)
        #expect(job.documentFormat == "image/pwg-raster" && job.pageCount == 2)
        try await service.waitUntilFinished(job)

        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let raster = folder.appendingPathComponent("job.pwg")
        try cups.spooledDocument(job: job.id).write(to: raster)
        let converted = try await Tool.run("/usr/lib/cups/filter/rastertopdf", ["1", "tester", "job", "1", "", raster.path])
        #expect(converted.status == 0, "\(converted.stderr)")
        let pdf = folder.appendingPathComponent("raster.pdf")
        try converted.stdout.write(to: pdf)
        let info = try await Tool.run("pdfinfo", [pdf.path]).text
        #expect(info.contains("Pages:           2") && info.contains("612 x 792 pts"), "\(info)")

        func gray(_ file: String, _ stem: String) async throws -> Netpbm {
            let path = folder.appendingPathComponent(stem).path
            let result = try await Tool.run("pdftoppm", ["-gray", "-r", "150", "-f", "1", "-l", "1", "-singlefile", file, path])
            #expect(result.status == 0, "\(result.stderr)")
            return try Netpbm(Data(contentsOf: URL(fileURLWithPath: path + ".pgm")))
        }
        let (printed, original) = await (try gray(pdf.path, "printed"), try gray(Fixtures.path("text.pdf"), "original"))
        #expect(printed.width == original.width && printed.height == original.height, "\(printed.width)x\(printed.height)")
        // rastertopdf maps the raster's white to 250 (its colour management): ink is measured
        // from each image's own white, summed in 10-pixel blocks. Drawn alike, the blocks
        // differ by 13% of the ink (MuPDF's and Poppler's edges); the same page 3 pixels off
        // differs by 28%.
        func inkBlocks(_ image: Netpbm) -> [Double] {
            let white = Double(image.pixels.max() ?? 255)
            var blocks: [Double] = []
            for top in stride(from: 0, to: image.height - 10, by: 10) {
                for left in stride(from: 0, to: image.width - 10, by: 10) {
                    var ink = 0.0
                    for y in top..<top + 10 {
                        for x in left..<left + 10 { ink += max(0, white - Double(image.pixels[y * image.width + x])) / white }
                    }
                    blocks.append(ink)
                }
            }
            return blocks
        }
        let (printedInk, originalInk) = (inkBlocks(printed), inkBlocks(original))
        let total = originalInk.reduce(0, +)
        #expect(total > 1_000, "the page has text to compare")
        let apart = zip(printedInk, originalInk).reduce(0) { $0 + abs($1.0 - $1.1) } / total
        #expect(apart < 0.2, "the blocks differ by \(apart) of the ink")
    }

    /// The printing setting and the PDF's print permission refuse the job before anything
    /// reaches the printer; secure printing names the job "document".
    @Test func settingsAndPermissionsDecideAndSecurePrintingHidesTheName() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        let service = PrintService(server: cups.address)
        var noPrinting = DocumentSettings()
        noPrinting[.printing] = FeatureSetting(available: false, enabled: false)
        for (fixture, settings) in [("text.pdf", noPrinting), ("restricted.pdf", DocumentSettings())] {
            let session = try Self.session(fixture, backend: "mupdf", settings: settings)
            defer { session.close() }
            let error = #expect(throws: RendererError.self) { try session.print(options: PrintOptions(printer: "office"), through: service) }
            #expect(error?.code == .notPermitted, "\(fixture): \(String(describing: error))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: cups.folder + "/spool").filter { $0.hasPrefix("d") }.isEmpty)

        var secure = DocumentSettings()
        secure[.securePrinting] = FeatureSetting(available: false, enabled: true)
        let session = try Self.session("text.pdf", backend: "poppler", settings: secure)
        defer { session.close() }
        #expect(throws: RendererError.self) { try session.setEnabled(false, for: .securePrinting) }  // the host requires it
        let job = try session.print(options: PrintOptions(printer: "office"), through: service)
        try await service.waitUntilFinished(job)
        let attributes = try await cups.jobAttributes(job.id)
        #expect(attributes["job-name"] == "document" && attributes["document-name-supplied"] == "document", "\(attributes)")
    }

    /// A document whose name holds spaces, a tab, a newline or letters outside ASCII is
    /// printed under a name the print server survives (Debian 12's cupsd died on a space in
    /// `document-name`): each job completes and the server still answers after it.
    @Test func namesWithSpacesAndOtherLettersPrint() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        let service = PrintService(server: cups.address)
        let document = try Fixtures.open("text.pdf", backend: "mupdf")
        let titles = [
            ("annual report.pdf", "annual_report.pdf"), ("tab\there.pdf", "tab_here.pdf"), ("two\nlines.pdf", "two_lines.pdf"),
            ("Zürich 報告.pdf", "Z_rich___.pdf"), ("   ", "document"),
        ]
        for (title, sent) in titles {
            let job = try service.print(document, title: title, options: PrintOptions(printer: "office"))
            try await service.waitUntilFinished(job)
            let attributes = try await cups.jobAttributes(job.id)
            #expect(attributes["job-state"] == "completed" && attributes["job-name"] == sent, "\(title): \(attributes)")
            #expect(attributes["document-name-supplied"] == sent, "\(title): \(attributes)")
            #expect(try service.printers().map(\.name) == ["office"], "the server still answers after \(title)")
        }
    }

    /// Each way a printer fails is a typed error, and nothing waits for ever: a printer that
    /// does not exist, one that refuses jobs, bad options, a server that is gone, and one
    /// that goes away while a held job waits.
    @Test func printerFailuresAreTypedErrors() async throws {
        let cups = try await CUPSServer.start()
        try await cups.addQueue("office", .pdf)
        try await cups.addQueue("closed", .pdf)
        try await cups.reject("closed")
        let service = PrintService(server: cups.address)
        let document = try Fixtures.open("text.pdf", backend: "mupdf")
        func code(_ options: PrintOptions) -> RendererError.Code? {
            #expect(throws: RendererError.self) { try service.print(document, title: "text.pdf", options: options) }?.code
        }
        #expect(code(PrintOptions(printer: "nowhere")) == .printerNotFound)
        #expect(code(PrintOptions(printer: "closed")) == .printJobRefused)
        #expect(code(PrintOptions(printer: "office", copies: 0)) == .invalidArgument)
        #expect(code(PrintOptions(printer: "office", pages: [7])) == .pageOutOfRange)
        #expect(try service.printers().map(\.name).sorted() == ["closed", "office"])
        #expect(try service.printers().first { $0.name == "closed" }?.isAcceptingJobs == false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cups.folder + "/spool").filter { $0.hasPrefix("d") }.isEmpty)

        // A held job waits at the server; the server goes away; following it ends with an error.
        let held = try service.print(document, title: "text.pdf", options: PrintOptions(printer: "office", held: true))
        #expect(try service.state(of: held) == .held)
        cups.stop()
        await #expect(throws: RendererError.self) {
            for try await _ in service.progress(of: held) {}
        }
        let gone = #expect(throws: RendererError.self) { try service.print(document, title: "text.pdf", options: PrintOptions(printer: "office")) }
        #expect(gone?.code == .printerUnreachable)
    }
}
