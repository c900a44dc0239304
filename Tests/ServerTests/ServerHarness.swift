import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import RendererProvider
import RendererServer
import ServiceLifecycle
import TestSupport

/// A real server on a free loopback port over a scratch folder of fixtures, and what the
/// tests ask it.
///
/// The folder `docs` holds copies of text.pdf (3 pages, "fixture" on page 2 only),
/// search.pdf, long.pdf (100 pages, "Page N"), labels.pdf and truncated.pdf (damaged),
/// not-a-pdf.pdf (text in a PDF's name), and escape.pdf, a symbolic link to the sample
/// outside the folder. Tests that need a page that takes seconds to draw ask for slow.pdf.
/// The folder goes when the harness does.
final class ServerHarness: Sendable {
    static let token = "server-test-token-0123456789"
    static var authorization: HTTPFields { [.authorization: "Bearer \(token)"] }

    let folder: String
    let docs: String

    /// Makes the scratch folder; `slowCurves` > 0 adds slow.pdf with that many curves, and
    /// `extra` more fixtures.
    init(slowCurves: Int = 0, extra: [String] = []) throws {
        folder = NSTemporaryDirectory() + "server-tests-" + UUID().uuidString
        docs = folder + "/docs"
        try FileManager.default.createDirectory(atPath: docs, withIntermediateDirectories: true)
        for name in ["text.pdf", "search.pdf", "long.pdf", "labels.pdf", "truncated.pdf", "not-a-pdf.pdf"] + extra {
            try FileManager.default.copyItem(atPath: Fixtures.path(name), toPath: "\(docs)/\(name)")
        }
        try FileManager.default.createSymbolicLink(atPath: "\(docs)/escape.pdf", withDestinationPath: Fixtures.samplePath)
        if slowCurves > 0 { try SlowPage.write(curves: slowCurves, to: "\(docs)/slow.pdf") }
    }

    /// Runs `test` against a server over the folder with `registry`'s engines, configured by
    /// `configure`, on a free loopback port, then shuts the server down gracefully (whether
    /// `test` threw or not); returns what `test` returned.
    @discardableResult
    func run<T: Sendable>(
        registry: RendererRegistry = Fixtures.registry, configure: (inout ServerConfiguration) -> Void = { _ in },
        _ test: @escaping @Sendable (ServerClient) async throws -> T
    ) async throws -> T {
        let server = try await start(registry: registry, configure: configure)
        let value: T
        do {
            value = try await test(ServerClient(port: server.port))
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
        return value
    }

    /// Starts a server over the folder with `registry`'s engines, configured by `configure`,
    /// on a free loopback port, as `hostapp serve` runs it (its shutdown gate after the
    /// application); the caller stops it.
    func start(registry: RendererRegistry = Fixtures.registry, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> RunningServer {
        var configuration = ServerConfiguration(roots: [docs], token: Self.token, port: 0)
        configure(&configuration)
        // Engine threads of its own: the other suites' engine work, which runs at the same
        // time on the shared threads, does not hold up this server's.
        let server = try DocumentServer(configuration: configuration, registry: registry, threads: EngineThreads(threadCount: 2))
        let (ports, listening) = AsyncStream.makeStream(of: Int.self)
        var group = ServiceGroupConfiguration(services: server.services { listening.yield($0) }, logger: Logger(label: "server-tests"))
        group.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        // A server that ends before it listens (it could not bind, say) ends the wait too.
        let serviceGroup = ServiceGroup(configuration: group)
        let task = Task {
            defer { listening.finish() }
            try await serviceGroup.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else {
            try await task.value
            throw POSIXError(.ECONNREFUSED)
        }
        return RunningServer(port: bound, group: serviceGroup, task: task)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// A server that ``ServerHarness/start(registry:configure:)`` started.
final class RunningServer: Sendable {
    let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        (self.port, self.group, self.task) = (port, group, task)
    }

    /// Shuts it down gracefully and waits until it has.
    func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}

/// An HTTP client (AsyncHTTPClient) for one test server. Its deadline is generous: the
/// whole suite runs at once on two cores, and other suites' blocking work can hold up the
/// server's tasks for a while; a deadline is there to end a hang, not to time the server.
struct ServerClient: Sendable {
    let port: Int

    /// The server's address, `http://127.0.0.1:PORT`.
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// `method` on `uri` with `headers` and `body`.
    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: Data? = nil) async throws -> ServerResponse {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(uri)")
        request.method = .init(rawValue: method.rawValue)
        for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(120))
        var fields = HTTPFields()
        for (name, value) in response.headers { if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) } }
        let bytes = try await response.body.collect(upTo: 64 << 20)
        return ServerResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headers: fields, data: Data(bytes.readableBytesView))
    }

    /// GET `uri` with the token (and `headers`).
    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> ServerResponse {
        var all = ServerHarness.authorization
        all.append(contentsOf: headers)
        return try await execute(uri: uri, method: .get, headers: all)
    }

    /// `method` on `uri` with the token and `body` as JSON (or the media type `type`).
    func send(_ method: HTTPRequest.Method, _ uri: String, body: Data, type: String = "application/json") async throws -> ServerResponse {
        var headers = ServerHarness.authorization
        headers[.contentType] = type
        return try await execute(uri: uri, method: method, headers: headers, body: body)
    }
}

/// A response, as the tests read it.
struct ServerResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    /// The body's bytes.
    var data: Data

    /// The body as JSON.
    var json: Any { (try? JSONSerialization.jsonObject(with: data)) ?? [:] }
    /// The body as UTF-8 text.
    var body: String { String(decoding: data, as: UTF8.self) }

    /// The API error's code, if the body is one.
    var errorCode: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["code"] as? String }
    /// The `status` member of a problem document (RFC 9457).
    var problemStatus: Int? { (json as? [String: Any])?["status"] as? Int }

    /// The API error's message, if the body is one.
    var errorMessage: String? { ((json as? [String: Any])?["error"] as? [String: Any])?["message"] as? String }
}

/// The address of a document under `docs/` in the API (the id percent-encoded).
func documentPath(_ name: String) -> String {
    "/api/documents/docs%2F" + name.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))!
}

/// A PNG's pixels, as netpbm's independent decoder reads them.
func pngPixels(_ png: Data) async throws -> Netpbm {
    let path = NSTemporaryDirectory() + UUID().uuidString + ".png"
    try png.write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try Netpbm(try await Tool.run("pngtopnm", [path]).stdout)
}

/// The width and height of a PNG, as netpbm's independent decoder reads it.
func pngSize(_ png: Data) async throws -> (width: Int, height: Int) {
    let image = try await pngPixels(png)
    return (image.width, image.height)
}
