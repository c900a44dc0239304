import Foundation
import RendererProvider
import Testing
import TestSupport

/// Each backend's plain text against its engine's own tool, page by page, after
/// normalising whitespace: MuPDF against `mutool draw -F txt`, Poppler against `pdftotext`.
@Suite("Plain text equal to the engines' own tools")
struct TextReferenceTests {
    /// The fixtures with an unsigned signature field, on which `mutool draw -F txt` writes
    /// the "SIGN" of the placeholder MuPDF draws there; MuPDF's structured text of the page
    /// (`fz_new_stext_page_from_page`, as `toStructuredText` under `mutool run` also gives it)
    /// does not hold it, and the backend's text is that structured text.
    static let unsignedSignatureFields = ["signed.pdf", "signed-then-changed.pdf", "field-loop.pdf"].map(Fixtures.path)

    @Test(arguments: Fixtures.allDocuments.filter { !unsignedSignatureFields.contains($0) })
    func muPDFMatchesMutool(file: String) async throws {
        try await compare(backend: "mupdf", file: file) { page in
            try await Tool.run("mutool", ["draw", "-q", "-F", "txt", "-o", "-", file, "\(page)"]).text
        }
    }

    @Test(arguments: Fixtures.allDocuments)
    func popplerMatchesPdftotext(file: String) async throws {
        try await compare(backend: "poppler", file: file) { page in
            try await Tool.run("pdftotext", ["-f", "\(page)", "-l", "\(page)", file, "-"]).text
        }
    }

    private func compare(backend: String, file: String, reference: (Int) async throws -> String) async throws {
        let document = try await Fixtures.conformanceRegistry.open(.file(file), renderer: .id(backend))
        for index in 0..<document.pageCount {
            let ours = await Fixtures.normalizedWhitespace(try document.text(pageAt: index))
            let theirs = Fixtures.normalizedWhitespace(try await reference(index + 1))
            #expect(ours == theirs, "page \(index + 1)")
        }
    }
}
