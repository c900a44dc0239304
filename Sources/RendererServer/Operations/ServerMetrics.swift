import CoreMetrics
import Metrics
import NIOCore
import Prometheus
import RendererProvider

/// What a server measures of itself, through swift-metrics into a Prometheus registry of its
/// own, and answers in Prometheus' text format at `GET /api/metrics` (with the token, as
/// every route): each request's count and time by route, method and status; each engine's
/// work (drawing, text, search) by renderer, and the errors it ended with, by code; the page
/// image cache's hits and misses; and, read when asked (``Readings``), the engine queue's
/// depth, the open collaboration WebSockets, the shared database's operations in flight and
/// its pool's size, and the engine processes started and restarted.
///
/// A registry per server, not swift-metrics' process-wide system: two servers in one
/// process (an application's, the tests') count apart.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let cacheHits: CoreMetrics.Counter
    private let cacheMisses: CoreMetrics.Counter
    private let sharedCacheHits: CoreMetrics.Counter
    private let sharedCacheMisses: CoreMetrics.Counter
    private let queueDepth: Prometheus.Gauge
    private let openWebSockets: Prometheus.Gauge
    private let databaseInFlight: Prometheus.Gauge
    private let databaseConnections: Prometheus.Gauge
    private let engineProcessesStarted: Prometheus.Counter
    private let engineRestarts: Prometheus.Counter
    /// The engine process counts already added to the counters.
    private let engineProcessesCounted = Locked((started: 0, restarted: 0))

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // From a cached page (under a millisecond) to a slow engine's page (seconds).
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
        ]
        self.factory = factory
        cacheHits = CoreMetrics.Counter(label: "hostapp_page_cache_hits_total", factory: factory)
        cacheMisses = CoreMetrics.Counter(label: "hostapp_page_cache_misses_total", factory: factory)
        sharedCacheHits = CoreMetrics.Counter(label: "hostapp_shared_page_cache_hits_total", factory: factory)
        sharedCacheMisses = CoreMetrics.Counter(label: "hostapp_shared_page_cache_misses_total", factory: factory)
        queueDepth = registry.makeGauge(name: "hostapp_engine_queue_depth", help: "Engine work admitted now: running or waiting.")
        openWebSockets = registry.makeGauge(name: "hostapp_open_websockets", help: "Collaboration WebSockets open now.")
        databaseInFlight = registry.makeGauge(
            name: "hostapp_database_operations_in_flight", help: "Operations on the shared database running or waiting for a connection now.")
        databaseConnections = registry.makeGauge(
            name: "hostapp_database_connections_maximum", help: "The connections the shared database's pool opens at most.")
        engineProcessesStarted = registry.makeCounter(
            name: "hostapp_engine_processes_started_total", help: "Engine processes this process started (isolated engines).")
        engineRestarts = registry.makeCounter(
            name: "hostapp_engine_restarts_total", help: "Engine processes started in place of one that crashed or overran the time limit.")
    }

    /// What the metrics read when they are asked for.
    struct Readings {
        /// Engine work admitted now.
        var queueDepth: Int
        /// Collaboration WebSockets open now.
        var openWebSockets: Int
        /// The shared database's operations in flight and its pool's size; nil without one.
        var database: (inFlight: Int, maximumConnections: Int)?
        /// The engine processes started and restarted so far (``EngineProcessTally``).
        var engineProcesses: (started: Int, restarted: Int)
    }

    /// Counts a request answered with `status` after `duration`, under the route it matched
    /// (its template, such as `/api/documents/{id}`; `unrouted` for none).
    func recordRequest(route: String, method: String, status: Int, duration: Duration) {
        let dimensions = [("route", route), ("method", method), ("status", String(status))]
        CoreMetrics.Counter(label: "hostapp_http_requests_total", dimensions: dimensions, factory: factory).increment()
        CoreMetrics.Timer(label: "hostapp_http_request_duration_seconds", dimensions: [("route", route), ("method", method)], factory: factory)
            .record(duration: duration)
    }

    /// Counts engine work of `renderer` that took `duration`, and the code of the error it
    /// ended with, if any (a page out of range as well as a crashed engine: the code says).
    func recordEngineWork(renderer: String, duration: Duration, error code: String?) {
        CoreMetrics.Timer(label: "hostapp_engine_work_seconds", dimensions: [("renderer", renderer)], factory: factory).record(duration: duration)
        if let code {
            CoreMetrics.Counter(label: "hostapp_engine_errors_total", dimensions: [("renderer", renderer), ("code", code)], factory: factory)
                .increment()
        }
    }

    /// Counts a look in the page image cache.
    func recordCacheLookup(hit: Bool) {
        (hit ? cacheHits : cacheMisses).increment()
    }

    /// Counts a lookup in the cache the servers share (`--shared-cache`), after the server's
    /// own missed.
    func recordSharedCacheLookup(hit: Bool) {
        (hit ? sharedCacheHits : sharedCacheMisses).increment()
    }

    /// The metrics in Prometheus' text format, with `now` read into the gauges and counters.
    func exposition(_ now: Readings) -> ByteBuffer {
        queueDepth.set(Int64(now.queueDepth))
        openWebSockets.set(Int64(now.openWebSockets))
        databaseInFlight.set(Int64(now.database?.inFlight ?? 0))
        databaseConnections.set(Int64(now.database?.maximumConnections ?? 0))
        let added = engineProcessesCounted.withLock { counted in
            defer { counted = now.engineProcesses }
            return (started: max(0, now.engineProcesses.started - counted.started), restarted: max(0, now.engineProcesses.restarted - counted.restarted))
        }
        engineProcessesStarted.increment(by: Int64(added.started))
        engineRestarts.increment(by: Int64(added.restarted))
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return ByteBuffer(bytes: bytes)
    }
}
