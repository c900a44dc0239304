import RendererEngine

extension DocumentMetadata {
    /// The Info dictionary's entries by their PDF keys, each nil when absent: the text
    /// entries, then the dates as PDF date strings.
    package var infoEntries: [(key: String, value: String?)] {
        [
            ("Title", title), ("Author", author), ("Subject", subject), ("Keywords", keywords),
            ("Creator", creator), ("Producer", producer),
            ("CreationDate", creationDate.map(PDFDate.string(from:))), ("ModDate", modificationDate.map(PDFDate.string(from:))),
        ]
    }
}
