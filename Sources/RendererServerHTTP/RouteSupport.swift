import Foundation
import Hummingbird
import NIOCore
import RendererProvider

/// What the route collections of the server share in reading requests and answering them:
/// a body within the server's limit, JSON bodies, query parameters, bearer tokens, and JSON
/// and byte answers. Every refusal is an ``APIError`` (400 or 413).
package protocol RouteSupport: Sendable {
    /// The most bytes a request's body may hold.
    var bodyLimit: Int { get }
}

extension RouteSupport {
    // MARK: Requests

    /// The request's body, at most ``bodyLimit`` bytes (413 past it).
    package func body(_ request: Request) async throws -> Data {
        var request = request
        return Data(try await request.collectBody(within: bodyLimit).readableBytesView)
    }

    /// The request's JSON body as a `T`; 400 saying what is wrong where.
    package func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        try Self.decoded(T.self, from: try await body(request))
    }

    /// `data`, a request's JSON body, as a `T`; 400 saying what is wrong where.
    package static func decoded<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .rfc3339
        do {
            return try decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest("the body is not a valid \(T.self): \(error.summary)")
        } catch {
            throw APIError.badRequest("the body is not JSON")
        }
    }

    /// The query parameter `name` as the text it stands for, nil when absent: decoded as an
    /// HTML form encodes it (`+` is a space, `%2B` a plus sign), as browsers'
    /// `URLSearchParams` write it. 400 when its percent-encoding is not UTF-8.
    package static func queryText(_ name: String, _ request: Request) throws -> String? {
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard formDecoded(halves[0]) == name else { continue }
            guard let value = halves.count > 1 ? formDecoded(halves[1]) : "" else {
                throw APIError.badRequest("\(name) is not percent-encoded UTF-8")
            }
            return value
        }
        return nil
    }

    /// A name or value of a query as the text it stands for, as an HTML form encodes it (`+`
    /// a space, `%2B` a plus sign); nil when its percent-encoding is not UTF-8.
    package static func formDecoded(_ part: Substring) -> String? {
        part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The query parameter `name` as a `T`, nil when absent; 400 when present and not a `T`.
    package static func query<T: LosslessStringConvertible>(_ name: String, _ request: Request, as type: T.Type) throws -> T? {
        guard let text = try queryText(name, request) else { return nil }
        guard let value = T(text) else { throw APIError.badRequest("\(name) must be a \(T.self == Double.self ? "number" : T.self == Int.self ? "whole number" : "value"), not \"\(text.prefix(40))\"") }
        return value
    }

    /// A boolean query parameter (``flag(_:)``); false when it is not given.
    package static func flag(_ name: String, _ request: Request) throws -> Bool {
        guard let text = try queryText(name, request) else { return false }
        guard let flag = flag(text) else { throw APIError.badRequest("\(name) must be true or false") }
        return flag
    }

    /// What a boolean query parameter's `text` says: `true`, `1` or `yes` is true, `false`,
    /// `0`, `no` or nothing is false, in any case; nil for anything else.
    package static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "1", "true", "yes": true
        case "0", "false", "no", "": false
        default: nil
        }
    }

    /// The token of an `Authorization: Bearer` header.
    package static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return nil }
        return String(header.dropFirst(7))
    }

    // MARK: Answers

    /// `value` as a JSON response.
    package static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return data(try encoder.encode(value), type: "application/json; charset=utf-8", status: status, headers: headers)
    }

    /// `bytes` as a response of `type`, never cached unless `headers` say otherwise.
    package static func data(_ bytes: Data, type: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = type
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// `bytes` of `type` that came out of a document (an attachment, an image) as a download
    /// saved as `name`, never shown as a page of this server: `nosniff`, a sandbox policy, not
    /// cached.
    package static func sandboxedDownload(_ bytes: Data, type: String, name: String) -> Response {
        data(bytes, type: type, headers: sandboxedDownloadHeaders(name: name))
    }

    /// The headers of a download saved as `name` that is never shown as a page of this
    /// server (``sandboxedDownload(_:type:name:)``).
    package static func sandboxedDownloadHeaders(name: String) -> HTTPFields {
        var headers = downloadHeaders(name: name)
        headers[.contentSecurityPolicy] = "sandbox"
        return headers
    }

    /// The headers of a download saved as `name`: its type as given (`nosniff`), never cached.
    package static func downloadHeaders(name: String) -> HTTPFields {
        [.contentDisposition: FileDownload.disposition(name), .init("X-Content-Type-Options")!: "nosniff", .cacheControl: "private, no-store"]
    }

    /// A strong ETag over `parts` (FNV-1a, 64 bits, of their text).
    package static func eTag(_ parts: String...) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in parts.joined(separator: "|").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))\""
    }
}

extension Request {
    /// Collects the body, at most `limit` bytes (413 past it), and keeps it in the request
    /// for whatever reads it next.
    package mutating func collectBody(within limit: Int) async throws -> ByteBuffer {
        do {
            return try await collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.tooLarge(limit)
        }
    }
}
