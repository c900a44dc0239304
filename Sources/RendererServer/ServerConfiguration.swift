import Foundation
import RendererCollaboration
import RendererPrinting
import RendererConversion
import RendererProvider
import RendererSignatures

/// What a ``DocumentServer`` serves and how: where it listens, which files, through which
/// engines, and the bounds it keeps to.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback unless the host asks for more.
    public var host: String
    /// The port to listen on; 0 picks a free one (``DocumentServer/run(alongside:onListening:)`` reports it).
    public var port: Int
    /// The files and folders served: a file is served itself, a folder with every PDF under
    /// it. Nothing else is reachable.
    public var roots: [String]
    /// The renderer used when a request names none, and for the reader's session.
    public var renderer: RendererSelection
    /// The secret every request must carry (`Authorization: Bearer`, or the cookie the
    /// viewer's entry page sets). Never logged.
    public var token: String
    /// Whether annotations and the files may be changed through the API.
    public var allowsEditing: Bool
    /// The password for encrypted documents, if any.
    public var password: String?
    /// What readers may do with every served document, enforced with each PDF's own
    /// permissions: printing (print images), saving to another file (downloads),
    /// annotating, editing. Everything by default.
    public var settings = DocumentSettings()
    /// The SQLite database each reader's bookmarks and place in each document are kept in,
    /// created when missing; nil keeps them in memory, for the server's life.
    public var readerStatePath: String?
    /// What each engine document may keep in its caches.
    public var documentLimits: DocumentLimits
    /// The highest resolution a page image may be requested at.
    public var maximumDPI: Double
    /// The most pixels a page image may have.
    public var maximumPixelCount: Int
    /// How long one page's drawing, text or comparison may take before it is stopped.
    public var timeLimit: Duration?
    /// Engine documents open at once per file and engine: the pages of one file drawn in parallel.
    public var documentsPerFile: Int
    /// Engine tasks (renders, searches, comparisons) running or waiting at once; past it a
    /// request is answered 429.
    public var queueLimit: Int
    /// The bytes of encoded page images kept for repeated requests.
    public var cacheBytes: Int
    /// A memcached server (`host:port`) that servers share page images through, behind each
    /// one's own cache; nil for none. Give it only a memcached on the servers' own network:
    /// what it answers is served as it is.
    public var sharedCache: String?
    /// The largest request body accepted; past it a request is answered 413.
    public var bodyLimit: Int
    /// When set, readers may open PDFs of their own machine (`POST /api/uploads`, the
    /// viewer's Open command), kept apart from the served files; nil (the default) takes
    /// none.
    public var uploads: UploadConfiguration?
    /// When set, readers may print to this CUPS print server's printers from the viewer
    /// (`GET /api/printers`, `POST /api/documents/{id}/print`), under the document settings'
    /// `printing` and `securePrinting`; nil (the default): the viewer prints through the
    /// browser only.
    public var printing: PrintService?
    /// The certificates signers' chains must lead to for the viewer's signature panel to call a
    /// signature valid (`GET /api/documents/{id}/signatures`); none (the default) leaves every
    /// intact signature unknown.
    public var trustAnchors = TrustAnchors.none
    /// The identity whoever holds the server's token signs with, from the viewer's signature
    /// panel (`POST /api/documents/{id}/signatures`), where the document settings' `signing`
    /// and the PDF allow it; nil (the default) refuses signing. Its key stays in the server's
    /// memory: no route answers with it.
    public var signingIdentity: SigningIdentity?
    /// When true, the server stops once no viewer tab has been open for ``viewerLinger``
    /// (`hostapp view`: a server for one reader's tab, which ends when the tab does).
    public var endsWithViewer = false
    /// How long a server that ends with its viewer waits for a tab to come back (a reload)
    /// before it stops.
    public var viewerLinger: Duration = .seconds(10)
    /// When set, the server also keeps collaboration layers (`/api/collab/...`).
    public var collaboration: CollaborationConfiguration?
    /// How long a graceful shutdown may take (requests in flight answered, WebSockets
    /// closed) before what is left of it is cancelled: a client that never answers the
    /// WebSocket closing handshake does not keep the server running.
    public var shutdownGracePeriod: Duration = .seconds(30)
    /// How long a client may take to send a connection's first request head, from the
    /// moment it connects: past it the connection is closed, so half-sent requests cannot
    /// hold connections (and the server's file descriptors) for ever.
    public var requestHeadTimeout: Duration = .seconds(30)
    /// How long a connection may stay idle between requests, or in the middle of sending
    /// one, before the server closes it.
    public var idleTimeout: Duration = .seconds(60)
    /// How long a client may take to send a request's body, from its head, whatever its
    /// pace: past it the connection is closed, so that a body sent a byte at a time cannot
    /// hold a connection (each byte keeps it from being idle).
    public var requestBodyTimeout: Duration = .seconds(120)
    /// The memory page images being drawn may take together, in bytes (4 bytes a pixel for
    /// the bitmap and as much again for its encoding): a request that would go past it is
    /// answered 429 until others finish, and one that alone would is refused 400.
    public var renderMemoryBytes: Int = 1 << 30
    /// How many served files keep their engine documents and session open at once (the
    /// least recently used is closed past it; its reader's state is kept).
    public var openFileLimit: Int = 32
    /// The most connections open at once; past it a new connection is answered 503 and
    /// closed. Nil: the process's file descriptor limit less what the open files' engine
    /// documents and the rest of the server may need, and at least 16.
    public var connectionLimit: Int?
    /// The most connections open at once from one client address; nil: half the total.
    public var connectionLimitPerAddress: Int?
    /// The time tries at documents' passwords are counted by (five, then one more a minute):
    /// the continuous clock. A test that must know which tries are refused holds it still,
    /// so that no try comes back while the test runs, however slow the machine.
    public var passwordTryClock: @Sendable () -> ContinuousClock.Instant = { .now }
    /// The text recognition documents read their scanned pages with, for the text and
    /// search routes and the viewer's text layer (`Document.textRecognition`); none by
    /// default.
    public var textRecognition: TextRecognition?
    /// The text recognition a reader may ask for, a document at a time (`POST
    /// /api/documents/{id}/recognition`, the viewer's "Recognise text"), when
    /// ``textRecognition`` is nil; none by default.
    public var textRecognitionOnRequest: TextRecognition?

    /// A configuration serving `roots` on loopback with `token`, through `renderer`.
    public init(
        roots: [String], token: String, host: String = "127.0.0.1", port: Int = 8080, renderer: RendererSelection = .auto,
        allowsEditing: Bool = true, password: String? = nil, documentLimits: DocumentLimits = DocumentLimits(),
        maximumDPI: Double = 1200, maximumPixelCount: Int = 64_000_000, timeLimit: Duration? = .seconds(60),
        documentsPerFile: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), queueLimit: Int = 256,
        cacheBytes: Int = 256 << 20, bodyLimit: Int = 4 << 20
    ) {
        self.roots = roots
        self.token = token
        self.host = host
        self.port = port
        self.renderer = renderer
        self.allowsEditing = allowsEditing
        self.password = password
        self.documentLimits = documentLimits
        self.maximumDPI = maximumDPI
        self.maximumPixelCount = maximumPixelCount
        self.timeLimit = timeLimit
        self.documentsPerFile = documentsPerFile
        self.queueLimit = queueLimit
        self.cacheBytes = cacheBytes
        self.bodyLimit = bodyLimit
    }
}

/// Where and how much a server keeps of the PDFs readers upload.
///
/// Each upload is a file of its own in ``folder``, named by 128 random bits and served under
/// the id `uploads/NAME.pdf` to whoever holds the server's token and that id: never listed,
/// never written over, never in a served folder. What does not open as a document is not
/// kept.
public struct UploadConfiguration: Sendable {
    /// The folder uploads are kept in, created when missing. It must lie outside every
    /// served root, and no served root inside it.
    public var folder: String
    /// The largest upload taken, in bytes (past it: 413, and nothing kept).
    public var maximumBytes: Int
    /// The most bytes all uploads may take together: the oldest are removed to make room
    /// for a new one. Uploads being received count as their bytes arrive.
    public var totalBytes: Int
    /// The renderers uploads are opened with, nil for the server's own. Uploads are
    /// strangers' files: `hostapp serve` opens them with isolated renderers (each engine in a
    /// child process under the memory and time limits) whatever `--isolate` says for the
    /// served folders.
    public var renderers: RendererRegistry?
    /// When set, an uploaded office document (Word, Excel, PowerPoint, OpenDocument, RTF) is
    /// converted by LibreOffice (`RendererConversion`'s `OfficeConverter`, one warm instance
    /// for the server, under these limits) and kept as its PDF; nil (the default) takes none.
    public var officeConversion: OfficeConverter.Configuration?
    /// When set, an uploaded HTML document is printed by headless Chromium
    /// (`RendererConversion`'s `HTMLConverter`: the page fetches nothing, under these limits)
    /// and kept as its PDF; nil (the default) takes none.
    public var htmlConversion: HTMLConverter.Configuration?

    /// Uploads kept in `folder`, each at most `maximumBytes`, together at most `totalBytes`,
    /// opened with `renderers` (nil: the server's), office documents converted under
    /// `officeConversion` and HTML under `htmlConversion` (nil: refused).
    public init(
        folder: String, maximumBytes: Int = 64 << 20, totalBytes: Int = 1 << 30, renderers: RendererRegistry? = nil,
        officeConversion: OfficeConverter.Configuration? = nil, htmlConversion: HTMLConverter.Configuration? = nil
    ) {
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.totalBytes = totalBytes
        self.renderers = renderers
        self.officeConversion = officeConversion
        self.htmlConversion = htmlConversion
    }
}
