#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// Marks `area` of the page at `index` for redaction: adds a redaction annotation
    /// (kind `AnnotationKind.redact`) and returns it as stored. Nothing is removed until
    /// ``applyRedactions(pageAt:blackBoxes:)``; until then the mark is listed with the
    /// page's annotations and can be removed like any of them.
    ///
    /// Needs `Capability.redact` and the PDF's modify permission (`unsupported`
    /// otherwise); an empty area is `invalidArgument`.
    @discardableResult
    public func markRedaction(_ area: PageRect, onPageAt index: Int) throws -> Annotation {
        try requireRedaction()
        guard area.size.width > 0, area.size.height > 0, area.origin.x.isFinite, area.origin.y.isFinite else {
            throw RendererError(.invalidArgument, "a redaction needs an area of positive width and height")
        }
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        // The area as the mark's one quad too: a redaction's quads, when it has any, are
        // what is removed.
        let mark = Annotation(
            id: UUID().uuidString.lowercased(), kind: .redact, pageIndex: index, rect: area, quads: [Quad(area)],
            creationDate: now, modificationDate: now)
        let added = try withPage(index, needing: nil, as: AnnotationWriting.self) { try $0.addAnnotation(mark) }
        markChanged()
        return added
    }

    /// Applies the redaction annotations of the page at `index`, or of every page: the
    /// content under each area is removed from the page (MuPDF 1.21: text whose glyphs touch
    /// it, and the pixels of images under it; vector paths stay), then the annotations. With
    /// `blackBoxes`, a black box is drawn over each area. Returns the indices of the pages
    /// that had any.
    ///
    /// The removed content must not stay in the file: such a document cannot be saved
    /// incrementally (which would keep the original bytes), so `automatic` saves rewrite it
    /// and `incremental` is refused. Needs `Capability.redact` and the PDF's modify
    /// permission.
    @discardableResult
    public func applyRedactions(pageAt index: Int? = nil, blackBoxes: Bool = true) throws -> [Int] {
        try requireRedaction()
        let pages = index.map { [$0] } ?? Array(0..<pageCount)
        var applied: [Int] = []
        for page in pages where try withPage(page, needing: nil, as: Redacting.self) { try $0.applyRedactions(blackBoxes: blackBoxes) } {
            applied.append(page)
        }
        if !applied.isEmpty { markChanged() }
        return applied
    }

    private func requireRedaction() throws {
        try require(.redact)
        try require(.modify, toAllow: "changes")
    }
}
