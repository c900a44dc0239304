import Foundation
import RendererProvider
import Testing
import TestSupport

/// Each backend's plain text against its engine's own tool, page by page, after
/// normalising whitespace: MuPDF against `mutool draw -F txt`, Poppler against `pdftotext`.
@Suite("Plain text equal to the engines' own tools")
struct TextReferenceTests {
    @Test(arguments: Fixtures.allDocuments)
    func muPDFMatchesMutool(file: String) throws {
        try compare(backend: "mupdf", file: file) { page in
            try Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file, "\(page)"]).text
        }
    }

    @Test(arguments: Fixtures.allDocuments)
    func popplerMatchesPdftotext(file: String) throws {
        try compare(backend: "poppler", file: file) { page in
            try Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).text
        }
    }

    private func compare(backend: String, file: String, reference: (Int) throws -> String) throws {
        let document = try Fixtures.registry.open(.file(file), backend: .id(backend))
        for index in 0..<document.pageCount {
            let ours = Fixtures.normalizedWhitespace(try document.text(pageAt: index))
            #expect(ours == Fixtures.normalizedWhitespace(try reference(index + 1)), "page \(index + 1)")
        }
    }
}
