import Foundation
import RendererProvider
import Testing
import TestSupport

/// The same documents through both engines: what they report about documents and pages
/// must agree. Known divergence, with its reason: with the owner password Poppler 22.12
/// withholds high-resolution printing when /P lacks it (see the conformance tests).
@Suite("MuPDF and Poppler agree on document facts")
struct DocumentFactsComparisonTests {
    static let documents = Fixtures.allDocuments

    @Test(arguments: documents)
    func sameFacts(file: String) throws {
        let mupdf = try Fixtures.registry.open(.file(file), renderer: .id("mupdf"))
        let poppler = try Fixtures.registry.open(.file(file), renderer: .id("poppler"))
        #expect(try mupdf.info() == poppler.info())
        let mupdfPages = try mupdf.pageInfos()
        let popplerPages = try poppler.pageInfos()
        #expect(mupdfPages.count == popplerPages.count)
        for (a, b) in zip(mupdfPages, popplerPages) {
            #expect(a.rotation == b.rotation && a.label == b.label, "page \(a.index)")
            #expect(abs(a.size.width - b.size.width) < 0.01 && abs(a.size.height - b.size.height) < 0.01, "page \(a.index)")
        }
    }

    /// Real-world PDFs from Debian's documentation packages (zlib1g-dev, which `make setup`
    /// installs, ships one): both backends agree with `pdfinfo` on page count and sizes.
    @Test func realWorldDocumentsAgreeWithPdfinfo() async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try await RealWorldDocuments.collect(into: directory, limit: 6)
        try #require(!files.isEmpty, "no PDF found under /usr/share/doc")
        for file in files {
            let expected = try await PdfinfoReport(file: file)
            for backend in Fixtures.backendIDs {
                let pages = try await Fixtures.registry.open(.file(file), renderer: .id(backend)).pageInfos()
                #expect(pages.count == expected.sizes.count, "\(file) with \(backend)")
                for (page, size) in zip(pages, expected.sizes) {
                    let turned = page.rotation == .quarter || page.rotation == .threeQuarters
                    let unrotated = turned ? PageSize(width: page.size.height, height: page.size.width) : page.size
                    #expect(abs(unrotated.width - size.width) < 0.01 && abs(unrotated.height - size.height) < 0.01,
                            "\(file) page \(page.index + 1) with \(backend): \(unrotated) vs pdfinfo \(size)")
                }
            }
        }
    }
}

/// Page sizes as `pdfinfo -l` prints them (unrotated crop box, in points).
struct PdfinfoReport {
    var sizes: [PageSize] = []

    init(file: String) async throws {
        let result = try await Tool.run("pdfinfo", ["-l", "100000", file])
        for line in result.text.split(separator: "\n") {
            guard let match = line.firstMatch(of: /^Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+) pts/),
                let width = Double(match.output.1), let height = Double(match.output.2)
            else { continue }
            sizes.append(PageSize(width: width, height: height))
        }
    }
}
