import Foundation
import Hummingbird
import NIOCore
import RendererPrinting
import RendererProvider

/// An error the API answers with: an HTTP status and a problem document (RFC 9457,
/// `application/problem+json`) `{"type": "about:blank", "title": ..., "status": ...,
/// "detail": ..., "code": ..., "error": {"code": "...", "message": "..."}}`, where the code
/// is a `RendererError` code or one of the server's own (`not-found`, `forbidden`,
/// `unauthorized`, `too-large`, `busy`, `shutting-down`, `bad-request`, `method-not-allowed`,
/// `precondition-failed`, `internal`). `error` keeps the shape the API answered before
/// problem documents, for the clients written against it.
package struct APIError: HTTPResponseError, CustomStringConvertible {
    /// The status the request is answered with.
    package var status: HTTPResponse.Status
    /// The machine-readable code.
    package var code: String
    /// What went wrong, for a person.
    package var message: String
    /// Extra headers (`Retry-After` on 429 and 503).
    package var headers: HTTPFields = [:]

    /// An error answered with `status`, `code` and `message`.
    package init(_ status: HTTPResponse.Status, code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    package var description: String { "\(status.code) \(code): \(message)" }

    package static func badRequest(_ message: String) -> APIError { APIError(.badRequest, code: "bad-request", message) }
    package static func notFound(_ message: String) -> APIError { APIError(.notFound, code: "not-found", message) }
    package static func forbidden(_ message: String) -> APIError { APIError(.forbidden, code: "forbidden", message) }
    /// 401 with `WWW-Authenticate: Bearer` (RFC 6750): no token, or one that does not
    /// verify (`message` says why).
    package static func unauthorized(_ message: String = "a valid token is required") -> APIError {
        var error = APIError(.unauthorized, code: "unauthorized", message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
    /// 405 with `Allow` listing the methods the path answers.
    package static func methodNotAllowed(_ method: HTTPRequest.Method, allowed: [HTTPRequest.Method]) -> APIError {
        let names = allowed.map(\.rawValue)
        var error = APIError(.methodNotAllowed, code: "method-not-allowed", "\(method.rawValue.prefix(20)) is not answered here; \(names.joined(separator: ", ")) are")
        error.headers[.allow] = names.joined(separator: ", ")
        return error
    }
    /// 412: an `If-Match` the resource's current entity tag does not match.
    package static func preconditionFailed(_ message: String) -> APIError {
        APIError(.preconditionFailed, code: "precondition-failed", message)
    }
    package static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, code: "too-large", "the request body is larger than the limit of \(limit) bytes")
    }
    package static var busy: APIError {
        var error = APIError(.tooManyRequests, code: "busy", "the server's engine queue is full; retry shortly")
        error.headers[.retryAfter] = "1"
        return error
    }
    /// 503 `not-ready`: the server cannot take requests now, for `reason`.
    package static func notReady(_ reason: String) -> APIError {
        var error = APIError(.serviceUnavailable, code: "not-ready", "the server is not ready: \(reason)")
        error.headers[.retryAfter] = "5"
        return error
    }

    package static var shuttingDown: APIError {
        var error = APIError(.serviceUnavailable, code: "shutting-down", "the server is shutting down")
        error.headers[.retryAfter] = "5"
        error.headers[.connection] = "close"
        return error
    }

    /// The answer to an engine's error: 422 for values a well-formed request gives that the
    /// library refuses (`invalid-argument`: an ink annotation without a path, a form field
    /// the document does not have; a request the API's schema refuses is a 400 before it
    /// reaches the library) and for work past a limit (`limit-exceeded`: a page image larger
    /// than any one request may draw), 404 for a page or file that
    /// is not there (a printer too), 403 for what the document does not permit, 409 for a
    /// conflict or a printer that refuses the job, 422 for a document the engines cannot
    /// read, 502 for a print server that fails, 503 for work stopped by its time limit, 500
    /// for the rest, whose message says only the code (the error itself goes to the log).
    package init(_ error: RendererError) {
        let status: HTTPResponse.Status =
            switch error.code {
            case .pageOutOfRange, .fileNotFound: .notFound
            case .notPermitted: .forbidden
            case .conflict: .conflict
            case .invalidArgument, .limitExceeded, .damaged, .unsupportedFormat, .unsupported, .passwordRequired, .wrongPassword, .expired, .tampered, .wrongKey:
                .unprocessableContent
            case .cancelled: .serviceUnavailable
            case .printerNotFound: .notFound
            case .printJobRefused: .conflict
            case .printerUnreachable, .printJobFailed: .badGateway
            default: .internalServerError
            }
        // What failed inside the server (a database, a disk) is logged, not told: its words
        // can name the server's paths, files or SQL.
        let message = status == .internalServerError ? "the server failed to answer the request (\(error.code.rawValue))" : error.message
        self.init(status, code: error.code.rawValue, message)
    }

    /// Any error as the API answers it: API and engine errors as they are, Hummingbird's
    /// own with their status, anything else as a 500 that names no internals.
    package static func from(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError: return error
        case let error as RendererError: return APIError(error)
        case let error as any HTTPResponseError:
            let code =
                switch error.status {
                case .notFound: "not-found"
                case .contentTooLarge: "too-large"
                default: error.status.code >= 500 ? "internal" : "bad-request"
                }
            return APIError(error.status, code: code, "\(error.status.reasonPhrase)")
        default: return APIError(.internalServerError, code: "internal", "the server failed to answer the request")
        }
    }

    /// The problem document of an error (RFC 9457), with the API's own `code` and its
    /// former `error` object as extension members.
    struct Body: Codable {
        struct Detail: Codable {
            var code: String
            var message: String
        }
        var type = "about:blank"
        var title: String
        var status: Int
        var detail: String
        var code: String
        var error: Detail
    }

    /// The media type of an error's body.
    package static let mediaType = "application/problem+json"

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: responseHeaders, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// The headers of the answer: this error's own and the JSON body's.
    private var responseHeaders: HTTPFields {
        var headers = self.headers
        headers[.contentType] = Self.mediaType
        headers[.cacheControl] = "no-store"
        return headers
    }

    /// The JSON body of the answer.
    private var body: Data {
        let body = Body(title: status.reasonPhrase, status: status.code, detail: message, code: code, error: .init(code: code, message: message))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(body)) ?? Data()
    }

    /// The whole HTTP/1.1 answer as bytes on the wire, closing the connection: for the
    /// answers written below Hummingbird (``RefusedUpgradeAnswer``, and
    /// ``lastAnswer(from:)``).
    func rawResponse() -> ByteBuffer {
        let body = self.body
        var headers = responseHeaders
        headers[.contentLength] = "\(body.count)"
        headers[.connection] = "close"
        var head = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in headers { head += "\(field.name.rawName): \(field.value)\r\n" }
        var buffer = ByteBuffer(string: head + "\r\n")
        buffer.writeBytes(body)
        return buffer
    }
}

extension APIError {
    /// Writes this error as the connection's last answer from `context`, a handler nearest
    /// the socket (so that the bytes pass no HTTP encoder), and ends the connection's
    /// output; the handlers behind hear that the input has ended, so that they give up as
    /// they do when a client leaves. The connection closes when the client closes its end,
    /// and at most 5 s later: closing at once, with the client's request unread, would reset
    /// the connection, and the client could lose the answer. Whatever the client still sends
    /// must not be passed on by the caller.
    package func lastAnswer(from context: ChannelHandlerContext) {
        let channel = context.channel
        context.writeAndFlush(NIOAny(rawResponse())).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }
}
