/// What a page is, before anything is drawn.
public struct PageInfo: Hashable, Sendable, Codable {
    /// The 0-based index of the page in its document.
    public var index: Int
    /// The size of the page as displayed: its crop box with its rotation applied, in points.
    public var size: PageSize
    /// The rotation the document gives the page; ``size`` already includes it.
    public var rotation: PageRotation
    /// The page's label from the document's `/PageLabels` (such as "iv" or "A-3"); the
    /// 1-based page number when the document defines no label for this page.
    public var label: String
    /// The page's media, crop, bleed, trim and art boxes; `nil` from a backend that cannot
    /// read them.
    public var boxes: PageBoxes?

    /// Facts of the page at `index`.
    public init(index: Int, size: PageSize, rotation: PageRotation, label: String, boxes: PageBoxes? = nil) {
        self.index = index
        self.size = size
        self.rotation = rotation
        self.label = label
        self.boxes = boxes
    }
}
