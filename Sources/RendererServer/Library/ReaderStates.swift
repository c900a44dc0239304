import Foundation
import Hummingbird
import RendererProvider
import RendererLayers
import RendererProviderStore
import RendererServerHTTP

/// Each reader's bookmarks and place in each served document, kept so that they survive
/// restarts, and never shared between readers: in the server's state database
/// (``ServerConfiguration/readerStatePath``), or, when the server collaborates on a
/// PostgreSQL database, in that database, where every server sharing it finds them.
///
/// A reader is who a request says it comes from: the viewer's browser carries a reader
/// cookie the viewer's entry page gives it (a random id, for a year); other clients may send
/// a `Reader-ID` header of their own choosing (16 to 128 letters, digits, `-` or `_`);
/// requests with neither share one reader. The database keeps a digest of the id, never
/// the id itself.
final class ReaderStates: Sendable {
    /// The header a client names its reader in.
    static let header = HTTPFields.Element.Name("Reader-ID")!

    /// The cookie that carries the viewer's reader id on the server whose token is `token`.
    static func cookieName(token: String) -> String {
        Secrets.cookieName("renderer_reader_", for: "reader", token)
    }

    private let store: any ReaderStateStorage
    private let token: String

    /// The states in `shared` when given; else in the SQLite database at `path`, or in
    /// memory (for the server's life) when nil.
    init(path: String?, shared: (any ReaderStateStorage)?, token: String) throws {
        store = try shared ?? SQLiteReaderStates(store: path.map { try SQLiteStateStore(path: $0) } ?? SQLiteStateStore())
        self.token = token
    }

    /// The reader `request` comes from: 400 for a `Reader-ID` that is not one.
    func reader(of request: Request) throws -> String {
        if let named = request.headers[Self.header] {
            guard Self.isReaderID(named) else {
                throw APIError.badRequest("Reader-ID must be 16 to 128 letters, digits, - or _")
            }
            return named
        }
        if let cookie = request.cookies[Self.cookieName(token: token)]?.value, Self.isReaderID(cookie) { return cookie }
        return ""
    }

    static func isReaderID(_ text: String) -> Bool {
        (16...128).contains(text.utf8.count) && text.utf8.allSatisfy { $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// The reader's bookmarks in document `id`, by page.
    func bookmarks(reader: String, document id: String) async throws -> [Bookmark] {
        try await store.bookmarks(for: key(reader, id))
    }

    /// Adds a bookmark to page `pageIndex` of a document of `pageCount` pages.
    func addBookmark(pageIndex: Int, title: String, pageCount: Int, reader: String, document id: String) async throws -> Bookmark {
        try Self.requirePage(pageIndex, of: pageCount)
        return try await store.add(Bookmark(id: "", pageIndex: pageIndex, title: title, creationDate: Date()), for: key(reader, id))
    }

    /// Removes the reader's bookmark `bookmarkID`; 404 when they have none by that id.
    func removeBookmark(id bookmarkID: String, reader: String, document id: String) async throws {
        guard try await store.removeBookmark(id: bookmarkID, for: key(reader, id)) else {
            throw APIError.notFound("there is no bookmark \"\(bookmarkID.prefix(80))\"")
        }
    }

    /// Where the reader left a document of `pageCount` pages (its first page, at 100%, when
    /// they never read it; a page past a shortened document's end is its last).
    func viewingState(pageCount: Int, reader: String, document id: String) async throws -> ViewingState {
        var viewing = try await store.viewingState(for: key(reader, id)) ?? ViewingState(pageIndex: 0)
        viewing.pageIndex = max(0, min(viewing.pageIndex, pageCount - 1))
        return viewing
    }

    /// Keeps where the reader is in a document of `pageCount` pages.
    func setViewingState(_ viewing: ViewingState, pageCount: Int, reader: String, document id: String) async throws {
        try Self.requirePage(viewing.pageIndex, of: pageCount)
        guard viewing.zoom.isFinite, viewing.zoom > 0, viewing.zoom <= 64 else { throw APIError.badRequest("zoom must be above 0 and at most 64") }
        guard viewing.scrollOffset.x.isFinite, viewing.scrollOffset.y.isFinite else { throw APIError.badRequest("the scroll offset must be finite") }
        try await store.setViewingState(viewing, for: key(reader, id))
    }

    private static func requirePage(_ index: Int, of count: Int) throws {
        guard (0..<count).contains(index) else {
            throw RendererError(.pageOutOfRange, "page index \(index) is out of range: the document has \(count) page\(count == 1 ? "" : "s")")
        }
    }

    /// The store's key: a digest of the reader id, and the document's id.
    private func key(_ reader: String, _ id: String) -> String {
        "reader:\(Secrets.digest(of: [reader])):\(id)"
    }
}

/// The states of a server alone, in its SQLite state database, where each key is filed as a
/// document's fingerprint.
private struct SQLiteReaderStates: ReaderStateStorage {
    let store: SQLiteStateStore

    func bookmarks(for key: String) throws -> [Bookmark] {
        try store.bookmarks(for: DocumentFingerprint(rawValue: key))
    }

    func add(_ bookmark: Bookmark, for key: String) throws -> Bookmark {
        try store.add(bookmark, for: DocumentFingerprint(rawValue: key))
    }

    func removeBookmark(id: String, for key: String) throws -> Bool {
        do {
            try store.removeBookmark(id: id, for: DocumentFingerprint(rawValue: key))
            return true
        } catch let error as RendererError where error.code == .invalidArgument {
            return false
        }
    }

    func viewingState(for key: String) throws -> ViewingState? {
        try store.viewingState(for: DocumentFingerprint(rawValue: key))
    }

    func setViewingState(_ state: ViewingState, for key: String) throws {
        try store.setViewingState(state, for: DocumentFingerprint(rawValue: key))
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
