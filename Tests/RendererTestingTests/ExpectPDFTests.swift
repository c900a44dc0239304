import Foundation
import RendererComparison
import RendererProvider
import RendererTesting
import Testing
import TestSupport

/// The Swift Testing form as a project uses it: references committed beside this file in
/// `__References__/ExpectPDFTests`, checked with one line.
@Suite("expectPDF")
struct ExpectPDFTests {
    @Test func aDocumentMatchesItsCommittedReference() throws {
        expectPDF(DiffPairs.url("base"), matchesReference: "invoice")
        // The same from the file's bytes and from an open document.
        expectPDF(try Data(contentsOf: DiffPairs.url("same")), matchesReference: "invoice", recording: .never)
        let document = try TestingRenderers.registry.open(.file(DiffPairs.url("base").path), password: nil, renderer: .id("poppler"))
        expectPDF(document, matchesReference: "invoice", recording: .never)
    }

    @Test func aChangedWordFailsNamingItsPage() {
        withKnownIssue {
            expectPDF(DiffPairs.url("word"), matchesReference: "invoice", recording: .never)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            return text.hasPrefix("invoice: page 2: ") && text.contains("images in ")
        }
    }

    @Test func aMissingReferenceFailsWithoutBeingWrittenWhenRecordingIsOff() {
        withKnownIssue {
            expectPDF(DiffPairs.url("base"), matchesReference: "no-such-reference", recording: .never)
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().contains("there is no reference in")
        }
        #expect(!FileManager.default.fileExists(atPath: ReferenceCheck.folder(named: "no-such-reference", filePath: #filePath).path))
    }

    @Test func renderersThatAgreeRecordNothing() {
        expectRenderersAgree(on: DiffPairs.url("base"))
    }

    @Test func aDrawingOnlyOneRendererGetsWrongNamesItsRenderer() throws {
        withKnownIssue {
            expectRenderersAgree(on: DiffPairs.url("engine-specific"))
        } matching: { issue in
            issue.comments.map(\.rawValue).joined().hasPrefix("page 1: ghostscript differs from mupdf, poppler, which agree")
        }
        let agreement = try RendererAgreement(DiffPairs.url("engine-specific"))
        #expect(agreement.disagreements.map(\.renderer) == ["ghostscript"])
        #expect(agreement.disagreements.first?.isOddOneOut == true)
        // The witnesses see the same: gs leaves out what mutool and pdftoppm draw.
        let scratch = try Tool.temporaryDirectory()
        let pdf = DiffPairs.url("engine-specific").path
        try ReferenceCheckTests.succeeded(Tool.runBlocking("mutool", ["draw", "-q", "-r", "72", "-o", scratch.path + "/m.png", pdf, "1"]))
        try ReferenceCheckTests.succeeded(Tool.runBlocking("pdftoppm", ["-r", "72", "-png", "-singlefile", "-f", "1", "-l", "1", pdf, scratch.path + "/p"]))
        try ReferenceCheckTests.succeeded(
            Tool.runBlocking("gs", ["-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-r72", "-dFirstPage=1", "-dLastPage=1", "-sOutputFile=" + scratch.path + "/g.png", pdf]))
        let poppler = try ReferenceCheckTests.imageMagickDifferingPixels(scratch.path + "/m.png", scratch.path + "/p.png", fuzz: 10)
        let ghostscript = try ReferenceCheckTests.imageMagickDifferingPixels(scratch.path + "/m.png", scratch.path + "/g.png", fuzz: 10)
        #expect(ghostscript > 10 * poppler, "gs \(ghostscript), pdftoppm \(poppler)")
    }
}
