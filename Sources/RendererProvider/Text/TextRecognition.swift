#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the text an image of a page shows (optical character recognition). The provider
/// draws the page with the document's renderer and hands the pixels over; a recognizer
/// module (RendererOCR's Tesseract) plugs in here, so that the API links no OCR library.
public protocol TextRecognizer: Sendable {
    /// The text `bitmap` shows, as blocks of lines of characters (words separated by a
    /// space character) with their boxes and confidences, in page space: a pixel at column
    /// x, row y is the point (x, y) x `pointsPerPixel`. Throws `cancelled` (or
    /// `limitExceeded` for its time limit) when `cancellation` stops it.
    func recognize(_ bitmap: Bitmap, pointsPerPixel: Double, cancellation: Cancellation?) throws -> TextPage
}

/// What a document reads with text recognition, and how: which pages, at what resolution,
/// within what limits.
public struct TextRecognition: Sendable {
    /// The pages text recognition reads.
    public enum Pages: String, Sendable, CaseIterable {
        /// Pages without a character of text of their own (scans); the others keep theirs.
        case withoutText = "without-text"
        /// Every page, its own text set aside (a scan under a bad text layer).
        case all
    }

    /// The default resolution of the page image recognition reads.
    public static let defaultDPI = 300.0

    /// What reads the page images.
    public var recognizer: any TextRecognizer
    /// Which pages are read (default: those without text).
    public var pages: Pages
    /// How each page image is drawn: at ``defaultDPI`` in gray unless changed; its pixel and
    /// resolution limits apply.
    public var renderOptions: RenderOptions
    /// The longest one page's drawing and reading may take; nil for no limit.
    public var timeLimit: Duration?
    /// Where the documents given this recognition keep what they read, so that documents of
    /// one file (a server's pool) read each page once for all of them; nil: each document
    /// keeps its own. A document with unsaved changes keeps its own.
    public var store: RecognizedPages?

    /// Recognition by `recognizer` of `pages`, drawn at `dpi` in gray.
    public init(recognizer: any TextRecognizer, pages: Pages = .withoutText, dpi: Double = TextRecognition.defaultDPI, timeLimit: Duration? = nil) {
        self.recognizer = recognizer
        self.pages = pages
        self.renderOptions = RenderOptions(dpi: dpi, pixelFormat: .gray)
        self.timeLimit = timeLimit
    }
}

/// Pages text recognition has read, shared by the documents of one version of one file that
/// are given it (``TextRecognition/store``): give a new store when the file changes.
public final class RecognizedPages: Sendable {
    private let pages = Locked<[Int: TextPage?]>([:])

    /// An empty store.
    public init() {}

    /// How many pages have been looked at (read from their image, or found to keep their
    /// own text).
    public var count: Int { pages.withLock { $0.count } }

    /// How many pages have been read from their image.
    public var recognizedCount: Int { pages.withLock { $0.values.filter { $0 != nil }.count } }

    /// Page `index` as looked at: its recognised text, `.some(nil)` when it keeps its own,
    /// nil when it has not been looked at.
    subscript(index: Int) -> TextPage?? {
        get { pages.withLock { $0[index] } }
        set { pages.withLock { $0[index] = newValue } }
    }
}

/// A document's text recognition and what it has read so far: the recognised pages of the
/// document as it is now, forgotten when it changes.
struct RecognitionState {
    var recognition: TextRecognition?
    /// Each page looked at: its recognised text, or nil when it keeps its own.
    var pages: [Int: TextPage?] = [:]
    /// Counts the document's changes, so that a page read before one is not kept after it.
    var version = 0
}

extension Document {
    /// The text recognition ``text(pageAt:)``, ``textPage(pageAt:)`` and the searches use
    /// (none by default): with it, the pages it covers are read from their image, so that a
    /// scanned document can be read, searched and selected. Results are kept per page until
    /// the document changes or this is set again.
    public var textRecognition: TextRecognition? {
        get { recognitionState.withLock { $0.recognition } }
        set {
            recognitionState.withLock { state in
                state.recognition = newValue
                state.pages = [:]
                state.version += 1
            }
        }
    }

    /// Reads page `index`'s text from its image with `recognition` (whatever text the page
    /// holds), drawn by this document's renderer at the recognition's resolution: words
    /// with boxes and confidences. Nothing is kept. Throws `cancelled` or `limitExceeded`
    /// (the time limit, the drawing's pixel and resolution limits) as the drawing and the
    /// recognizer do.
    public func recognizeText(pageAt index: Int, with recognition: TextRecognition, cancellation: Cancellation? = nil) throws -> TextPage {
        let limited = Cancellation(timeLimit: recognition.timeLimit, within: cancellation)
        let bitmap = try render(pageAt: index, options: recognition.renderOptions, cancellation: limited)
        try limited.check()
        return try recognition.recognizer.recognize(bitmap, pointsPerPixel: 72 / recognition.renderOptions.dpi, cancellation: limited)
    }

    /// Page `index`'s recognised text when ``textRecognition`` covers it, read once per
    /// document version; nil when there is no recognition or the page keeps its own text
    /// (`engineText`, read when asked for, is that text).
    func recognizedTextPage(pageAt index: Int, engineText: () throws -> TextPage) throws -> TextPage? {
        let (recognition, known, version) = recognitionState.withLock { ($0.recognition, $0.pages[index], $0.version) }
        guard let recognition else { return nil }
        if let known { return known }
        let store = engine.withLock { $0.hasUnsavedChanges } ? nil : recognition.store
        let recognized: TextPage?
        if let stored = store?[index] {
            recognized = stored
        } else if recognition.pages == .withoutText, try !engineText().isBlank {
            recognized = nil
        } else {
            recognized = try recognizeText(pageAt: index, with: recognition)
        }
        store?[index] = .some(recognized)
        recognitionState.withLock { state in
            if state.version == version { state.pages[index] = .some(recognized) }
        }
        return recognized
    }

    /// Forgets what text recognition has read: the document has changed.
    func forgetRecognizedText() {
        recognitionState.withLock { state in
            state.pages = [:]
            state.version += 1
        }
    }
}
