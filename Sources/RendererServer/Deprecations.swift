import Foundation
import RendererProvider

// The names this release replaced, kept for one release: each forwards to its new name.

extension ServerConfiguration {
    /// A configuration serving `roots` on loopback with `token`, through `backend`.
    @available(
        *, deprecated,
        renamed: "init(roots:token:host:port:renderer:allowsEditing:password:documentLimits:maximumDPI:maximumPixelCount:timeLimit:documentsPerFile:queueLimit:cacheBytes:bodyLimit:)"
    )
    public init(
        roots: [String], token: String, host: String = "127.0.0.1", port: Int = 8080, backend: RendererSelection,
        allowsEditing: Bool = true, password: String? = nil, documentLimits: DocumentLimits = DocumentLimits(),
        maximumDPI: Double = 1200, maximumPixelCount: Int = 64_000_000, timeLimit: Duration? = .seconds(60),
        documentsPerFile: Int = max(2, ProcessInfo.processInfo.activeProcessorCount), queueLimit: Int = 256,
        cacheBytes: Int = 256 << 20, bodyLimit: Int = 4 << 20
    ) {
        self.init(
            roots: roots, token: token, host: host, port: port, renderer: backend, allowsEditing: allowsEditing, password: password,
            documentLimits: documentLimits, maximumDPI: maximumDPI, maximumPixelCount: maximumPixelCount, timeLimit: timeLimit,
            documentsPerFile: documentsPerFile, queueLimit: queueLimit, cacheBytes: cacheBytes, bodyLimit: bodyLimit)
    }

    /// The renderer used when a request names none.
    @available(*, deprecated, renamed: "renderer")
    public var backend: RendererSelection {
        get { renderer }
        set { renderer = newValue }
    }
}
