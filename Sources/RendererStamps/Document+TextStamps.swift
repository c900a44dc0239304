import RendererProvider

/// Text stamps on an open document.
extension Document {
    /// Lays `stamps` onto their pages as ``TextStamp`` describes, the fonts embedded once
    /// and subset to the glyphs shown. Every stamp is laid out (its fonts found, its pages
    /// checked) before anything is written: a stamp that cannot be drawn is
    /// `invalidArgument` (`pageOutOfRange` for a page the document lacks) and changes
    /// nothing. Needs `Capability.editPages` and the PDF's modify permission.
    public func addTextStamps(_ stamps: [TextStamp]) throws {
        let overlays = try TextStampLayout(pageCount: pageCount, pageSpace: { try self.pageSpace(pageAt: $0) }).overlays(for: stamps)
        try addPageOverlays(overlays)
    }
}

/// Text stamps within a reading session.
extension ReadingSession {
    /// Lays `stamps` onto their pages as ``RendererProvider/Document/addTextStamps(_:)``
    /// does, within the session's settings; the edit cannot be undone.
    public func addTextStamps(_ stamps: [TextStamp]) throws {
        let overlays = try TextStampLayout(pageCount: pageCount, pageSpace: { try self.pageSpace(pageAt: $0) }).overlays(for: stamps)
        try addPageOverlays(overlays)
    }
}
