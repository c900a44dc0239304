import Logging
import RendererProvider

/// What every part of a running server shares: its configuration, the engines, the threads
/// engine work runs on, the admission queue and the image cache.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let registry: RendererRegistry
    let threads: EngineThreads
    let queue: EngineQueue
    let cache: PageImageCache
    let gate = ShutdownGate()
    let logger: Logger

    init(configuration: ServerConfiguration, registry: RendererRegistry, threads: EngineThreads, logger: Logger) {
        self.configuration = configuration
        self.registry = registry
        self.threads = threads
        queue = EngineQueue(limit: configuration.queueLimit)
        cache = PageImageCache(budget: configuration.cacheBytes)
        self.logger = logger
    }

    /// The ids of the renderers a request may name.
    var rendererIDs: [String] { registry.renderers.map(\.id) }
}
