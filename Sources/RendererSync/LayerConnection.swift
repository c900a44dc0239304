import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RendererCollaboration
import RendererProvider

/// The HTTP side of a sync client: one layer's routes on one server, called with the
/// current token. A 401 asks for a new token once and sends the request again with it;
/// every other failure is a ``SyncError``.
final class LayerConnection: Sendable {
    /// The layer's routes, `…/api/collab/documents/{id}/layers/{layer}`.
    let base: String
    /// The layer's WebSocket, `ws://…/events`.
    let eventsURL: String
    private let token: Locked<String>
    private let renewal: @Sendable () async throws -> String?
    private let timeout: TimeAmount

    /// The layer of `descriptor` on `server`, asked with `token`; `renewal` gives a new token
    /// (or nil when there is none) after a 401.
    init(server: URL, descriptor: DocumentDescriptor, token: String, timeout: Duration, renewal: @escaping @Sendable () async throws -> String?) {
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~")))! }
        let root = server.absoluteString.hasSuffix("/") ? String(server.absoluteString.dropLast()) : server.absoluteString
        base = "\(root)/api/collab/documents/\(encode(descriptor.documentID))/layers/\(encode(descriptor.layer))"
        eventsURL = (base.hasPrefix("https:") ? "wss:" + base.dropFirst(6) : "ws:" + base.dropFirst(5)) + "/events"
        self.token = Locked(token)
        self.renewal = renewal
        self.timeout = .milliseconds(Int64(timeout / .milliseconds(1)))
    }

    /// The token requests are sent with now.
    var currentToken: String { token.withLock { $0 } }

    /// `GET …/annotations`.
    func snapshot() async throws -> LayerSnapshot {
        try JSONDecoder.collaboration.decode(LayerSnapshot.self, from: try await send("/annotations"))
    }

    /// `GET …/changes?since=N`.
    func changes(since revision: Int) async throws -> LayerChanges {
        try JSONDecoder.collaboration.decode(LayerChanges.self, from: try await send("/changes?since=\(max(revision, 0))"))
    }

    /// `POST …/changes`.
    func push(_ changes: [LayerChange]) async throws -> PushResult {
        let body = try JSONEncoder.collaboration.encode(LayerPush(changes: changes))
        return try JSONDecoder.collaboration.decode(PushResult.self, from: try await send("/changes", method: .POST, body: body))
    }

    /// `GET …/source.pdf` into `destination` (written whole, then moved into place), telling
    /// `progress` the bytes received and the bytes expected (when the server said).
    func download(to destination: URL, progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws {
        let partial = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil), let file = FileHandle(forWritingAtPath: partial.path) else {
            throw SyncError(.storage, "cannot write \(partial.path)")
        }
        defer { try? FileManager.default.removeItem(at: partial) }
        try await withRenewal { token in
            try file.truncate(atOffset: 0)
            var request = HTTPClientRequest(url: self.base + "/source.pdf")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await Self.execute(request, timeout: self.timeout)
            guard response.status == .ok else {
                throw SyncError.status(Int(response.status.code), try await Self.message(response.body.collect(upTo: 1 << 16)))
            }
            let expected = response.headers.first(name: "Content-Length").flatMap { Int64($0) }
            var received: Int64 = 0
            for try await chunk in response.body {
                try file.write(contentsOf: Data(chunk.readableBytesView))
                received += Int64(chunk.readableBytes)
                progress(received, expected)
            }
        }
        try file.close()
        _ = try? FileManager.default.removeItem(at: destination)
        try FileManager.default.moveItem(at: partial, to: destination)
    }

    /// The body of a successful request to `path` under the layer.
    private func send(_ path: String, method: HTTPMethod = .GET, body: Data? = nil) async throws -> Data {
        try await withRenewal { token in
            var request = HTTPClientRequest(url: self.base + path)
            request.method = method
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            if let body {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(bytes: body))
            }
            let response = try await Self.execute(request, timeout: self.timeout)
            let data = Data(try await response.body.collect(upTo: 64 << 20).readableBytesView)
            guard response.status == .ok else { throw SyncError.status(Int(response.status.code), Self.message(data)) }
            return data
        }
    }

    /// Runs `body` with the current token and, when the server answers 401 and the host can
    /// renew it, once more with the renewed token.
    private func withRenewal<T>(_ body: (String) async throws -> T) async throws -> T {
        do {
            return try await body(currentToken)
        } catch let error as SyncError where error.kind == .unauthorized {
            guard let renewed = try await renewal(), !renewed.isEmpty else { throw error }
            token.withLock { $0 = renewed }
            return try await body(renewed)
        }
    }

    /// The HTTP client of every sync client in the process. Unlike `HTTPClient.shared`, it
    /// fails a request at once when the server refuses the connection, rather than trying
    /// to connect again until the request's deadline: a client learns it is offline at once.
    /// Like `HTTPClient.shared` it lives as long as the process, so it is never shut down.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    private static func execute(_ request: HTTPClientRequest, timeout: TimeAmount) async throws -> HTTPClientResponse {
        do {
            return try await client.execute(request, timeout: timeout)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw SyncError(.offline, "the server cannot be reached: \(error)")
        }
    }

    /// The `message` of a JSON error body, or the body's start.
    private static func message(_ data: Data) -> String {
        struct Body: Decodable { var message: String }
        if let body = try? JSONDecoder().decode(Body.self, from: data) { return body.message }
        return String(decoding: data.prefix(200), as: UTF8.self)
    }

    private static func message(_ buffer: ByteBuffer) -> String { message(Data(buffer.readableBytesView)) }
}
