import Foundation
import RendererProvider
import Testing
import TestSupport

/// The contract of opening documents and reading their facts, checked on every backend.
@Suite("Documents, on every backend")
struct DocumentConformanceTests {
    @Test(arguments: Fixtures.readingBackendIDs)
    func pageCountsOfEveryFixture(backend: String) throws {
        for (name, pages) in Fixtures.openable {
            let document = try Fixtures.open(name, backend: backend)
            #expect(document.pageCount == pages, "\(name)")
            #expect(document.renderer.id == backend)
        }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func pageSizes(backend: String) throws {
        let pages = try Fixtures.open("mixed-sizes.pdf", backend: backend).pageInfos()
        #expect(pages.count == FixtureFacts.mixedSizes.count)
        for (page, expected) in zip(pages, FixtureFacts.mixedSizes) {
            #expect(abs(page.size.width - expected.width) < 0.01 && abs(page.size.height - expected.height) < 0.01,
                    "page \(page.index): \(page.size) != \(expected)")
            #expect(page.rotation == .none)
        }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func rotationSwapsTheDisplayedSize(backend: String) throws {
        let pages = try Fixtures.open("rotated.pdf", backend: backend).pageInfos()
        #expect(pages.map(\.rotation) == FixtureFacts.rotatedRedRects.map(\.rotation))
        for page in pages {
            let turned = page.rotation == .quarter || page.rotation == .threeQuarters
            #expect(page.size == (turned ? PageSize(width: 792, height: 612) : FixtureFacts.letter))
        }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func cropBoxIsThePageSize(backend: String) throws {
        #expect(try Fixtures.open("cropbox.pdf", backend: backend).pageInfo(pageAt: 0).size == FixtureFacts.cropSize)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func pageLabels(backend: String) throws {
        #expect(try Fixtures.open("labels.pdf", backend: backend).pageInfos().map(\.label) == FixtureFacts.labels)
        #expect(try Fixtures.open("text.pdf", backend: backend).pageInfos().map(\.label) == ["1", "2", "3"])
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func metadata(backend: String) throws {
        let info = try Fixtures.open("metadata.pdf", backend: backend).info()
        #expect(info.pageCount == 1)
        #expect(info.pdfVersion == "1.7")
        #expect(info.title == "Fixture Metadata: \u{fc}n\u{ef}c\u{f8}d\u{e9}")
        #expect(info.author == "Ada Lovelace")
        #expect(info.subject == "Renderer fixtures")
        #expect(info.keywords == "pdf, fixture, metadata")
        #expect(info.creator == "make-fixtures.js")
        #expect(info.producer == "mutool run")
        #expect(info.creationDate == Date(timeIntervalSince1970: 1_704_161_045))  // 2024-01-02T02:04:05Z
        #expect(info.modificationDate == Date(timeIntervalSince1970: 1_749_283_750))  // 2025-06-07T08:09:10Z
        #expect(!info.isEncrypted)
        #expect(info.permissions == .all)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func documentWithoutInfoHasNoMetadata(backend: String) throws {
        let info = try Fixtures.open("text.pdf", backend: backend).info()
        #expect(info.title == nil && info.author == nil && info.creationDate == nil)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func passwords(backend: String) throws {
        func code(_ password: String?) -> RendererError.Code? {
            do {
                _ = try Fixtures.open("encrypted.pdf", backend: backend, password: password)
                return nil
            } catch let error as RendererError {
                #expect(error.rendererID == Fixtures.engineID(backend))
                #expect(!error.message.contains(password ?? "\u{0}"), "a message must not echo the password")
                return error.code
            } catch {
                return nil
            }
        }
        #expect(code(nil) == .passwordRequired)
        #expect(code("not-the-password") == .wrongPassword)

        let user = try Fixtures.open("encrypted.pdf", backend: backend, password: "user-secret")
        #expect(user.pageCount == 3)
        let userInfo = try user.info()
        #expect(userInfo.isEncrypted)
        #expect(userInfo.permissions == [.extractForAccessibility])

        // The owner password allows everything. Known divergence: Poppler 22.12 still
        // withholds high-resolution printing when /P lacks it (its okToPrintHighRes ignores
        // the owner password), so for Poppler that one permission is not checked.
        let owner = try Fixtures.open("encrypted.pdf", backend: backend, password: "owner-secret").info()
        let expected = Fixtures.engineID(backend) == "poppler" ? DocumentPermissions.all.subtracting(.printHighResolution) : .all
        #expect(owner.permissions.isSuperset(of: expected))
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func encryptedWithEmptyUserPassword(backend: String) throws {
        let info = try Fixtures.open("restricted.pdf", backend: backend).info()
        #expect(info.isEncrypted)
        #expect(info.permissions == DocumentPermissions.all.subtracting([.print, .printHighResolution]))
        #expect(throws: RendererError.self) { try Fixtures.open("restricted.pdf", backend: backend, password: "wrong") }
        // A password on an unencrypted file is not needed and not checked.
        #expect(try Fixtures.open("text.pdf", backend: backend, password: "anything").pageCount == 3)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func badInputGetsItsOwnCode(backend: String) throws {
        let cases: [(String, RendererError.Code)] = [
            ("truncated.pdf", .damaged), ("not-a-pdf.pdf", .unsupportedFormat),
            ("empty.pdf", .unsupportedFormat), ("no-such-file.pdf", .fileNotFound),
        ]
        for (name, expected) in cases {
            let error = #expect(throws: RendererError.self) { try Fixtures.open(name, backend: backend) }
            #expect(error?.code == expected, "\(name)")
            #expect(error?.message.contains(name) == true, "the message names the file: \(error?.message ?? "")")
        }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func openFromMemory(backend: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("labels.pdf")))
        let document = try Fixtures.conformanceRegistry.open(.memory(data), renderer: .id(backend))
        #expect(document.pageCount == 9)
        #expect(try document.pageInfo(pageAt: 8).label == "AA")

        let encrypted = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("encrypted.pdf")))
        #expect(try Fixtures.conformanceRegistry.open(.memory(encrypted), password: "user-secret", renderer: .id(backend)).pageCount == 3)
        let error = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.memory(encrypted), renderer: .id(backend)) }
        #expect(error?.code == .passwordRequired)
        let truncated = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("truncated.pdf")))
        #expect((#expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.memory(truncated), renderer: .id(backend)) })?.code == .damaged)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func pageOutOfRange(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        for index in [-1, 3, 1000] {
            #expect((#expect(throws: RendererError.self) { try document.pageInfo(pageAt: index) })?.code == .pageOutOfRange)
            #expect((#expect(throws: RendererError.self) { try document.render(pageAt: index) })?.code == .pageOutOfRange)
        }
    }
}

/// A file repaired into no pages is damaged on every backend, never an empty success.
@Suite("Files repaired into nothing")
struct RepairedIntoNothingTests {
    /// no-pages.pdf (make-fixtures.sh): a header and one object that is no catalog, no xref.
    @Test(arguments: Fixtures.readingBackendIDs + ["auto"])
    func aFileRepairedIntoNoPagesIsDamaged(backend: String) throws {
        let selection = RendererSelection(backend)
        let error = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(.file(Fixtures.path("no-pages.pdf")), renderer: selection) }
        #expect(error?.code == .damaged, "\(error?.description ?? "")")
    }
}

/// Files one engine reads and the other does not, and what `auto` makes of them.
@Suite("auto serves the engine that reads the file")
struct AutoServesTests {
    /// xref-loop.pdf (make-fixtures.sh): a cross-reference chain that loops before the table
    /// of its 30 pages. MuPDF reads no pages (without calling it a repair): damaged, and
    /// `auto` serves Poppler's 30 pages, the count qpdf reads.
    @Test func aFileMuPDFReadsAsNoPagesIsServedByPoppler() async throws {
        let source = DocumentSource.file(Fixtures.path("xref-loop.pdf"))
        let qpdf = try await Tool.run("qpdf", ["--show-npages", Fixtures.path("xref-loop.pdf")])
        #expect(qpdf.text.trimmingCharacters(in: .whitespacesAndNewlines) == "30")
        let error = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(source, renderer: .id("mupdf")) }
        #expect(error?.code == .damaged && error?.message.contains("no pages") == true, "\(error?.description ?? "")")
        #expect(try await Fixtures.conformanceRegistry.open(source, renderer: .id("poppler")).pageCount == 30)
        let auto = try await Fixtures.conformanceRegistry.open(source)
        #expect(auto.renderer.id == "poppler" && auto.pageCount == 30)
    }

    /// embedded-encrypted.pdf (make-fixtures.sh): only its embedded file is encrypted. MuPDF
    /// wants the password, Poppler reads the page without one; auto, given no password,
    /// serves Poppler, and given the password, MuPDF.
    @Test func aFileWhoseAttachmentAloneIsEncrypted() throws {
        let source = DocumentSource.file(Fixtures.path("embedded-encrypted.pdf"))
        let error = #expect(throws: RendererError.self) { try Fixtures.conformanceRegistry.open(source, renderer: .id("mupdf")) }
        #expect(error?.code == .passwordRequired)
        let poppler = try Fixtures.conformanceRegistry.open(source, renderer: .id("poppler"))
        #expect(poppler.pageCount == 1)
        #expect(try poppler.text(pageAt: 0).contains("Only the attachment is encrypted."))
        #expect(try Fixtures.conformanceRegistry.open(source).renderer.id == "poppler")
        let withPassword = try Fixtures.conformanceRegistry.open(source, password: "embedded-secret")
        #expect(withPassword.renderer.id == "mupdf")
        #expect(try withPassword.text(pageAt: 0).contains("Only the attachment is encrypted."))
    }

    /// broken-page-tree.pdf: its page tree counts 5 pages over 3 kids. Each engine opens it
    /// with 5 pages, draws pages 1-3 and fails pages 4 and 5 on their own (`damaged`).
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aBrokenPageTreeFailsOnlyThePagesThatDoNotLoad(backend: String) throws {
        let document = try Fixtures.open("broken-page-tree.pdf", backend: backend)
        #expect(document.pageCount == 5)
        for index in 0..<3 {
            #expect(try document.render(pageAt: index, options: RenderOptions(dpi: 10)).width == 85)
        }
        for index in 3..<5 {
            let error = #expect(throws: RendererError.self) { try document.render(pageAt: index, options: RenderOptions(dpi: 10)) }
            #expect(error?.code == .damaged, "page \(index + 1): \(error?.description ?? "")")
        }
    }
}
