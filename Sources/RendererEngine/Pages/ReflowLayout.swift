/// The layout reflowable documents (EPUB, FictionBook) have until a reader chooses another:
/// an engine that lays pages out uses it when it opens such a document.
public enum ReflowLayout {
    /// The page size, MuPDF's default: 450 × 600 points.
    public static let defaultPageSize = PageSize(width: 450, height: 600)
    /// The text size, in points.
    public static let defaultFontSize = 11.0
}
