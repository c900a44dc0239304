import Foundation
import GhostscriptRenderer
import MuPDFRenderer
import PopplerRenderer
import RendererComparison
import RendererProvider
import Testing
import TestSupport

/// Three engines through the comparison API: on a page where two agree and the third
/// differs, the comparison names the third, whichever it is; each verdict is checked again
/// by comparing the engines in pairs.
@Suite("Comparing three engines")
struct ThreeEngineComparisonTests {
    static let registry = RendererRegistry([MuPDFRenderer(), PopplerRenderer(), GhostscriptRenderer()])
    static let engines = ["mupdf", "poppler", "ghostscript"]

    /// Whether `a` and `b` agree on page `index` of `file`, by a comparison of the two alone.
    static func agree(_ a: String, _ b: String, on index: Int, of file: String, comparer: DocumentComparer) throws -> Bool {
        let pair = try comparer.compare(.file(file), renderers: [a, b], registry: registry, pages: [index])
        return pair.passed
    }

    /// annotations.pdf (make-fixtures.sh): Ghostscript draws its annotations' appearances
    /// unlike the two others, which agree. font-loops.pdf: MuPDF reads the text of a page
    /// whose resources loop unlike Poppler and Ghostscript, which agree. The odd one is not
    /// always the reference's candidate: with MuPDF as the reference, it is the reference.
    @Test(arguments: [("annotations.pdf", "ghostscript"), ("font-loops.pdf", "mupdf")])
    func theOddOneOutIsNamed(name: String, odd: String) throws {
        let file = Fixtures.path(name)
        let comparer = DocumentComparer(dpi: 50)
        let comparison = try comparer.compare(.file(file), renderers: Self.engines, registry: Self.registry)
        #expect(comparison.oddOnesOut == [OddOneOut(pageIndex: 0, renderer: odd)])
        let others = Self.engines.filter { $0 != odd }
        #expect(try Self.agree(others[0], others[1], on: 0, of: file, comparer: comparer))
        for other in others {
            #expect(try !Self.agree(odd, other, on: 0, of: file, comparer: comparer), "\(odd) against \(other)")
        }
    }

    /// Pages on which all three agree name no one, nor does a comparison of two engines,
    /// where neither can be told the odd one.
    @Test func agreementAndTwoEnginesNameNoOne() throws {
        let comparer = DocumentComparer(dpi: 50)
        let agreed = try comparer.compare(.file(Fixtures.samplePath), renderers: Self.engines, registry: Self.registry)
        #expect(agreed.passed && agreed.oddOnesOut.isEmpty)
        let two = try comparer.compare(.file(Fixtures.path("annotations.pdf")), renderers: ["mupdf", "ghostscript"], registry: Self.registry)
        #expect(!two.passed && two.oddOnesOut.isEmpty)
    }
}
