import Foundation
import RendererComparison
import RendererProvider
import RendererTesting
import Testing
import TestSupport

/// Checking PDFs against reference folders: each variant of the diff pairs against a
/// reference of base.pdf finds exactly the difference its fixture script states, and
/// ImageMagick's `compare` counts the same changed pixels.
@Suite("Reference checks")
struct ReferenceCheckTests {
    /// A reference of base.pdf recorded into a fresh folder, checked against `variant`.
    static func check(
        _ variant: String, aspects: DocumentSnapshot.Aspects = .all, tolerance: PixelTolerance = PixelTolerance()
    ) throws -> (check: ReferenceCheck, folder: URL) {
        let folder = try Tool.temporaryDirectory().appendingPathComponent("base")
        let recorded = try ReferenceCheck(DiffPairs.url("base"), reference: folder, aspects: aspects, recording: .missing)
        guard case .recorded = recorded.outcome else { throw CheckFailure("a missing reference was not recorded") }
        return (try ReferenceCheck(DiffPairs.url(variant), reference: folder, aspects: aspects, tolerance: tolerance, recording: .never), folder)
    }

    struct CheckFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func differences(_ check: ReferenceCheck) -> [SnapshotDifference] {
        if case .differs(let comparison) = check.outcome { return comparison.differences }
        return []
    }

    @Test func aRecordedReferenceHoldsEveryPageItsTextAndStructure() throws {
        let (check, folder) = try Self.check("same")
        guard case .matched = check.outcome else { Issue.record("the same document does not match: \(check.outcome)"); return }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["page-001.png", "page-002.png", "page-003.png", "snapshot.json", "structure.json", "text.txt"])
        // The page images are what mutool draws at 72 dpi: ImageMagick finds no pixel apart.
        let scratch = try Tool.temporaryDirectory()
        try Self.succeeded(Tool.runBlocking("mutool", ["draw", "-q", "-r", "72", "-o", scratch.path + "/m%d.png", DiffPairs.url("base").path]))
        for page in 1...3 {
            let count = try Self.imageMagickDifferingPixels(folder.path + "/page-00\(page).png", scratch.path + "/m\(page).png", fuzz: 0)
            #expect(count == 0, "page \(page)")
        }
        // The text is pdftotext's page by page, up to the engines' own spacing: the same words.
        let text = try String(contentsOf: folder.appendingPathComponent("text.txt"), encoding: .utf8)
        let witness = try Tool.runBlocking("pdftotext", [DiffPairs.url("base").path, "-"]).text
        #expect(text.split(whereSeparator: \.isWhitespace) == witness.split(whereSeparator: \.isWhitespace))
        #expect(text.components(separatedBy: "\u{0C}\n").count == 4)
        let provenance = try JSONDecoder().decode(DocumentSnapshot.Provenance.self, from: Data(contentsOf: folder.appendingPathComponent("snapshot.json")))
        #expect(provenance.renderer == "mupdf" && provenance.pageCount == 3 && provenance.dpi == 72)
        #expect(provenance.engineVersion == TestingRenderers.registry.renderers[0].engineVersion)
    }

    @Test func aChangedWordIsFoundOnItsPageInTextAndPixels() throws {
        let differences = Self.differences(try Self.check("word").check)
        #expect(differences.map(\.kind) == [.pixels, .text])
        #expect(differences.allSatisfy { $0.page == 1 && $0.referencePage == 1 })
        let text = try #require(differences.last?.lines)
        #expect(text.changes == ["-The quick brown fox jumps over the lazy dog.", "+The quick brown fox jumps over the sleepy dog."])
        #expect(differences[0].message.hasPrefix("page 2: "))
    }

    @Test func aChangedColourIsCountedAsImageMagickCountsIt() throws {
        let (check, _) = try Self.check("colour")
        let differences = Self.differences(check)
        #expect(differences.map(\.kind) == [.pixels])
        let pixels = try #require(differences.first?.pixels)
        #expect(differences.first?.page == 0)
        // ImageMagick, on the same two drawings, with a fuzz of 16 levels in 255.
        let artifacts = try #require(check.artifacts)
        let witness = try Self.imageMagickDifferingPixels(
            artifacts.path + "/page-001-expected.png", artifacts.path + "/page-001-actual.png", fuzz: 16.0 / 255 * 100)
        // A 200 x 40 pt rectangle at 72 dpi: 8,000 pixels, give or take its anti-aliased edges.
        #expect(abs(pixels.differingPixels - witness) <= witness / 50, "\(pixels.differingPixels) against ImageMagick's \(witness)")
        #expect((7_800...8_400).contains(pixels.differingPixels))
        #expect(FileManager.default.fileExists(atPath: artifacts.path + "/page-001-difference.png"))
    }

    @Test func aMovedImageDiffersInPixelsOnlyOnItsPage() throws {
        let differences = Self.differences(try Self.check("moved-image").check)
        #expect(differences.map(\.kind) == [.pixels])
        #expect(differences.first?.page == 2)
    }

    @Test func anInsertedPageIsOneDifferenceAndTheLaterPagesStillMatch() throws {
        let differences = Self.differences(try Self.check("inserted-page").check)
        #expect(differences.map(\.kind) == [.pageAdded, .structure])
        #expect(differences.first?.page == 1)
        #expect(differences.first?.message == "page 2 is not in the reference")
        // The structure gains a page (the labels after it move on by one); nothing else.
        #expect(differences.last?.section == "page sizes")
    }

    @Test func aRotatedPageDiffersInSizeAndStructure() throws {
        let differences = Self.differences(try Self.check("rotated-page").check)
        #expect(differences.map(\.kind).contains(.pixels))
        #expect(differences.first { $0.kind == .pixels }?.message == "page 2: drawn 792 x 612 pixels, the reference 612 x 792")
        #expect(differences.filter { $0.kind == .structure }.map(\.section) == ["page sizes"])
        let structure = try #require(differences.first { $0.kind == .structure }?.lines)
        #expect(structure.changes.contains { $0.hasPrefix("+") && $0.contains("\"rotation\" : 90") })
    }

    @Test func aNewTitleIsAStructureDifferenceOnly() throws {
        let differences = Self.differences(try Self.check("retitled").check)
        #expect(differences.map(\.kind) == [.structure])
        #expect(differences.first?.section == "metadata")
        #expect(differences.first?.lines?.changes == ["-  \"title\" : \"Invoice 1001\"", "+  \"title\" : \"Invoice 1002\""])
    }

    @Test func anEdgeMovedByLessThanAPixelPassesByDefaultAndFailsExactly() throws {
        let (tolerant, _) = try Self.check("nudged", aspects: .pages)
        guard case .matched = tolerant.outcome else { Issue.record("a subpixel shift failed: \(tolerant.outcome)"); return }
        let exact = Self.differences(try Self.check("nudged", aspects: .pages, tolerance: .exact).check)
        #expect(exact.map(\.kind) == [.pixels])
        // ImageMagick counts the two edges' pixels: 80 on mutool's drawings.
        #expect(exact.first?.pixels?.differingPixels == 80)
    }

    @Test func aShareOfDifferingPixelsCanBeAllowed() throws {
        let (check, _) = try Self.check("colour", aspects: .pages, tolerance: PixelTolerance(differingShare: 0.02))
        guard case .matched = check.outcome else { Issue.record("8,000 of 484,704 pixels exceed 2%: \(check.outcome)"); return }
    }

    @Test func aReferenceOfAnotherEngineVersionFailsSayingSo() throws {
        let folder = try Tool.temporaryDirectory().appendingPathComponent("base")
        _ = try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .all)
        let file = folder.appendingPathComponent("snapshot.json")
        var provenance = try JSONDecoder().decode(DocumentSnapshot.Provenance.self, from: Data(contentsOf: file))
        provenance.engineVersion = "0.9"
        try JSONEncoder().encode(provenance).write(to: file)
        let differences = Self.differences(try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .never))
        #expect(differences.map(\.kind) == [.provenance])
        let version = TestingRenderers.registry.renderers[0].engineVersion
        #expect(differences.first?.message == "the reference was made with MuPDF 0.9 (mupdf), compared with MuPDF \(version) (mupdf): record the reference again with this engine to compare pixels")
    }

    @Test func recordingModesWriteWhatTheySay() throws {
        let folder = try Tool.temporaryDirectory().appendingPathComponent("base")
        let missing = try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .never)
        guard case .missing = missing.outcome else { Issue.record("never recorded: \(missing.outcome)"); return }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
        _ = try ReferenceCheck(DiffPairs.url("inserted-page"), reference: folder, recording: .missing)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/page-004.png"))
        // Recording a failed check replaces the reference, and a shorter document's stale page goes.
        let failed = try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .failed)
        guard case .recorded = failed.outcome else { Issue.record("failed was not recorded: \(failed.outcome)"); return }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/page-004.png"))
        let again = try ReferenceCheck(DiffPairs.url("same"), reference: folder, recording: .failed)
        guard case .matched = again.outcome else { Issue.record("the recorded reference does not match: \(again.outcome)"); return }
    }

    @Test func aDamagedReferenceIsAnErrorNotADifference() throws {
        let folder = try Tool.temporaryDirectory().appendingPathComponent("base")
        _ = try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .all)
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("page-002.png"))
        #expect(throws: RendererError.self) { try ReferenceCheck(DiffPairs.url("base"), reference: folder, recording: .never) }
    }

    /// Throws unless `result` is a tool's success.
    static func succeeded(_ result: Tool.Result) throws {
        guard result.status == 0 else { throw CheckFailure("a tool failed: \(result.stderr)") }
    }

    /// The pixels ImageMagick's `compare -metric AE` counts as different, with `fuzz` percent.
    static func imageMagickDifferingPixels(_ a: String, _ b: String, fuzz: Double) throws -> Int {
        let result = try Tool.runBlocking("compare", ["-metric", "AE", "-fuzz", "\(fuzz)%", a, b, "null:"])
        let number = result.stderr.split(separator: " ").first.map(String.init) ?? result.stderr
        guard let count = Double(number.trimmingCharacters(in: .whitespacesAndNewlines)) else { throw CheckFailure("compare said \(result.stderr)") }
        return Int(count)
    }
}
