import Foundation
import RendererComparison
import RendererProvider
import RendererSnapshotTesting
import RendererTesting
import SnapshotTesting
import Testing
import TestSupport

/// The swift-snapshot-testing strategies as a project uses them, against snapshots committed
/// in `__Snapshots__/SnapshotStrategyTests`, and their failures and recording in scratch folders.
@Suite("Snapshot strategies")
struct SnapshotStrategyTests {
    @Test func anInvoiceMatchesItsCommittedSnapshots() {
        assertSnapshot(of: DiffPairs.url("base"), as: .pdfPages(), named: "invoice")
        assertSnapshot(of: DiffPairs.url("base"), as: .pdfText(), named: "invoice")
        assertSnapshot(of: DiffPairs.url("base"), as: .pdfStructure(), named: "invoice")
        assertSnapshot(of: DiffPairs.url("base"), as: .pdfRenderersAgree(), named: "invoice-renderers")
    }

    /// `variant` verified against a snapshot of base.pdf recorded in a scratch folder with `strategy`.
    static func verify<Format>(_ variant: String, as strategy: Snapshotting<URL, Format>) throws -> String? {
        let folder = try Tool.temporaryDirectory().path
        _ = verifySnapshot(of: DiffPairs.url("base"), as: strategy, named: "base", record: .all, snapshotDirectory: folder, testName: "pair")
        return verifySnapshot(of: DiffPairs.url(variant), as: strategy, named: "base", record: .never, snapshotDirectory: folder, testName: "pair")
    }

    @Test func aChangedWordFailsEachStrategyAsItShould() throws {
        #expect(try Self.verify("same", as: .pdfPages()) == nil)
        let pages = try #require(try Self.verify("word", as: .pdfPages()))
        #expect(pages.contains("\npage 2: ") && pages.contains("% of its pixels"))
        let text = try #require(try Self.verify("word", as: .pdfText()))
        #expect(text.contains("−The quick brown fox jumps over the lazy dog.") && text.contains("+The quick brown fox jumps over the sleepy dog."))
        #expect(try Self.verify("word", as: .pdfStructure()) == nil)
        let structure = try #require(try Self.verify("retitled", as: .pdfStructure()))
        #expect(structure.contains("Invoice 1002"))
        let inserted = try Self.verify("inserted-page", as: .pdfPages())
        #expect(inserted?.contains("\npage 2 is not in the reference") == true, "\(inserted ?? "")")
    }

    @Test func aRendererThatStandsApartChangesTheVerdict() throws {
        let verdict = try #require(try Self.verify("engine-specific", as: .pdfRenderersAgree()))
        #expect(verdict.contains("+page 1: ghostscript differs from mupdf, poppler, which agree"))
    }

    @Test func aRecordedStripIsOnePNGOfThePagesWithItsLayout() throws {
        let folder = try Tool.temporaryDirectory()
        let message = verifySnapshot(of: DiffPairs.url("base"), as: .pdfPages(), named: "base", record: .missing, snapshotDirectory: folder.path, testName: "strip")
        #expect(message?.contains("No reference was found on disk. Automatically recorded snapshot") == true)
        let file = folder.appendingPathComponent("strip.base.png").path
        // ImageMagick reads it as one image of three letter pages at 72 dpi, one under another.
        let size = try Tool.runBlocking("identify", ["-format", "%w %h", file]).text
        #expect(size == "612 2376")
        let layout = try #require(try PNGText.text(forKeyword: "RendererProvider snapshot", in: Data(contentsOf: URL(fileURLWithPath: file))))
        #expect(layout.contains("\"engineVersion\":\"\(TestingRenderers.registry.renderers[0].engineVersion)\""))
    }

    @Test func aStripDrawnByAnotherEngineVersionFailsSayingSo() throws {
        let folder = try Tool.temporaryDirectory()
        _ = verifySnapshot(of: DiffPairs.url("base"), as: .pdfPages(), named: "base", record: .all, snapshotDirectory: folder.path, testName: "old")
        let file = folder.appendingPathComponent("old.base.png")
        let data = try Data(contentsOf: file)
        let version = TestingRenderers.registry.renderers[0].engineVersion
        let layout = try #require(try PNGText.text(forKeyword: "RendererProvider snapshot", in: data))
        let older = layout.replacingOccurrences(of: "\"engineVersion\":\"\(version)\"", with: "\"engineVersion\":\"0.9\"")
        try PNGText.adding(older, keyword: "RendererProvider snapshot", to: Bitmap(pngData: data).pngData()).write(to: file)
        let message = verifySnapshot(of: DiffPairs.url("base"), as: .pdfPages(), named: "base", record: .never, snapshotDirectory: folder.path, testName: "old")
        #expect(message?.hasSuffix("\nthe reference was made with MuPDF 0.9 (mupdf), compared with MuPDF \(version) (mupdf): record the reference again with this engine to compare pixels") == true)
    }

    @Test func aPDFThatCannotBeOpenedFailsWithTheReason() throws {
        let folder = try Tool.temporaryDirectory()
        _ = verifySnapshot(of: DiffPairs.url("base"), as: .pdfPages(), named: "base", record: .all, snapshotDirectory: folder.path, testName: "broken")
        let broken = folder.appendingPathComponent("broken.pdf")
        try Data("%PDF-1.7\nnot a document".utf8).write(to: broken)
        let message = try #require(verifySnapshot(of: broken, as: .pdfPages(), named: "base", record: .never, snapshotDirectory: folder.path, testName: "broken"))
        #expect(message.contains("\nthe PDF could not be drawn: "))
    }
}
