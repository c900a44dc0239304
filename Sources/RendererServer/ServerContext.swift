import Logging
import RendererCollaborationServer
import RendererConversion
import RendererProvider
import RendererServerHTTP
import RendererServerHTTP

/// What every part of a running server shares: its configuration, the engines, the threads
/// engine work runs on, the admission queue and the image cache.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let registry: RendererRegistry
    let threads: EngineThreads
    let queue: EngineQueue
    /// The bytes page images being drawn may take together (``ServerConfiguration/renderMemoryBytes``).
    let renderBudget: EngineQueue
    let cache: PageImageCache
    /// What the server measures of itself (`GET /api/metrics`).
    let metrics = ServerMetrics()
    /// Closed when the server drains; then the layer WebSockets are told to connect again.
    let gate: ShutdownGate
    let logger: Logger
    /// The collaboration layers, their listeners and limits, when the server collaborates.
    let collaboration: CollaborationBackend?
    /// Each reader's bookmarks and place in each document.
    let readers: ReaderStates
    /// Whether a viewer tab is open, when the server ends with its viewer.
    let viewerPresence: ViewerPresence?
    /// Where readers' uploads are kept, when the server takes them.
    let uploads: UploadStore?
    /// The LibreOffice uploaded office documents are converted by, when the server takes them.
    let officeConverter: OfficeConverter?
    let htmlConverter: HTMLConverter?
    /// The readers' passwords for encrypted documents, in memory only.
    let unlocks = DocumentUnlocks()
    /// Tries at a document's password, per document: five, and one more a minute (through
    /// every server sharing a PostgreSQL database together).
    let unlockLimiter: RateLimiter

    /// What a renderer must do for the server to offer it: the document route reads the
    /// metadata, and the viewer draws pages and selects and searches their text. Others
    /// (Ghostscript, which reads no metadata) are left out of ``registry``.
    static let neededCapabilities: Set<Capability> = [.metadata, .render, .text]

    /// The renderers uploads are opened with (``UploadConfiguration/renderers``), under the
    /// same ids as ``registry``'s.
    let uploadRegistry: RendererRegistry

    init(configuration: ServerConfiguration, registry: RendererRegistry, threads: EngineThreads, logger: Logger) throws {
        self.configuration = configuration
        self.registry = RendererRegistry(registry.renderers.filter { Self.neededCapabilities.isSubset(of: $0.capabilities) })
        let ids = Set(self.registry.renderers.map(\.id))
        uploadRegistry = configuration.uploads?.renderers.map { RendererRegistry($0.renderers.filter { ids.contains($0.id) }) } ?? self.registry
        self.threads = threads
        queue = EngineQueue(limit: configuration.queueLimit)
        renderBudget = EngineQueue(limit: configuration.renderMemoryBytes) {
            var error = APIError(.tooManyRequests, code: "busy", "the pages being drawn take the memory the server gives drawing; retry shortly")
            error.headers[.retryAfter] = "1"
            return error
        }
        let shared = try configuration.sharedCache.map { address in
            guard let client = MemcachedClient(address: address) else {
                throw RendererError(.invalidArgument, "the shared cache must be host:port, not \"\(address.prefix(200))\"")
            }
            return client
        }
        cache = PageImageCache(budget: configuration.cacheBytes, shared: shared, metrics: metrics)
        self.logger = logger
        let collaboration = try configuration.collaboration.map { try CollaborationBackend(configuration: $0, logger: logger) }
        self.collaboration = collaboration
        unlockLimiter = RateLimiter(
            burst: 5, per: .seconds(300), refusal: "too many tries at this document's password; wait a minute", now: configuration.passwordTryClock,
            shared: collaboration?.sharedAttempts.map { ("unlock", $0) })
        gate = ShutdownGate { await collaboration?.sockets.drain() }
        uploads = try configuration.uploads.map { try UploadStore($0, shared: collaboration?.uploadLedger) }
        officeConverter = configuration.uploads?.officeConversion.map { OfficeConverter(configuration: $0) }
        htmlConverter = configuration.uploads?.htmlConversion.map { HTMLConverter(configuration: $0) }
        viewerPresence = configuration.endsWithViewer ? ViewerPresence(linger: configuration.viewerLinger) : nil
        readers = try ReaderStates(path: configuration.readerStatePath, shared: collaboration?.readerStates, token: configuration.token)
    }

    /// Opens the served file at `path` with the registry's renderers (which may run their
    /// engines in child processes: `RendererIsolation`'s `IsolatedRenderer`), an upload with
    /// ``uploadRegistry``'s, with a reader's `password` or else the server's, reading its
    /// scanned pages with the configuration's text recognition. Engine work: call it on an
    /// engine thread.
    func openDocument(_ path: String, renderer: RendererSelection, password: String?) throws -> Document {
        let document = try registry(for: path).open(
            .file(path), password: password ?? configuration.password, renderer: renderer, limits: configuration.documentLimits)
        document.textRecognition = configuration.textRecognition
        return document
    }

    /// The renderers the file at `path` is read with, by every path that opens it (pools,
    /// sessions, copies): ``uploadRegistry``'s for an upload, ``registry``'s otherwise.
    func registry(for path: String) -> RendererRegistry {
        let isUpload = uploads.map { path.hasPrefix($0.folder + "/") } ?? false
        return isUpload ? uploadRegistry : registry
    }

    /// The ids of the renderers a request may name.
    var rendererIDs: [String] { registry.renderers.map(\.id) }

    /// The limits requests meet, from the configuration.
    var limits: ServerLimits { ServerLimits(configuration) }
}
