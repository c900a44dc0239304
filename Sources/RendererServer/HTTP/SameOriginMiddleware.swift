import Hummingbird
import RendererConversion
import RendererServerHTTP

/// Keeps other sites from acting through a reader's cookie, on the routes that take the
/// server's token (and so its cookie; collaboration routes take bearer tokens only). Every
/// port of a host is one site to a browser, so `SameSite=Strict` does not stop a page served
/// from another local port; a request that changes state (`POST`, `PUT`, `PATCH`, `DELETE`)
/// is therefore answered 403 unless
///
/// - its `Origin`, when it has one, is this server's own (the host and port it was asked
///   for, in its `Host` header), and
/// - a request with a body says it is JSON or XML (`application/json`, `application/xml`,
///   `text/xml`, `application/vnd.adobe.xfdf`), or a PDF, a picture or an office document
///   (`application/pdf`, `image/jpeg`, `image/png`, `image/tiff`, `OfficeConverter.mediaTypes`,
///   `HTMLConverter.mediaTypes`: an upload): a page of another site cannot send those types
///   without a CORS preflight, which this server never grants.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard [.post, .put, .patch, .delete].contains(request.method) else { return try await next(request, context) }
        if let origin = request.headers[.origin] {
            guard let authority = Self.authority(ofOrigin: origin), authority == request.head.authority?.lowercased() else {
                throw APIError.forbidden("requests that change state are taken from this server's own pages only")
            }
        }
        let type = request.headers[.contentType]?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let hasBody = request.headers[.transferEncoding] != nil || (request.headers[.contentLength].flatMap { Int($0) } ?? 0) > 0
        if hasBody || type != nil {
            guard let type, acceptedBodyTypes.contains(type) else {
                throw APIError(
                    .unsupportedMediaType, code: "unsupported-media-type",
                    "a request that changes state carries JSON (application/json), XFDF (application/vnd.adobe.xfdf) or, uploaded, a PDF (application/pdf), a picture (image/jpeg, image/png, image/tiff), an office document or an HTML page (text/html)")
            }
        }
        return try await next(request, context)
    }

    /// The `host:port` of an `Origin` header (`http://127.0.0.1:8080`), lowercased; nil for
    /// `null` or anything that is not a scheme and an authority.
    static func authority(ofOrigin origin: String) -> String? {
        guard let range = origin.range(of: "://") else { return nil }
        let authority = origin[range.upperBound...]
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        return authority.lowercased()
    }
}

/// The body types a state-changing request may carry, made once (a static stored property
/// cannot live in a generic type).
private let acceptedBodyTypes: Set<String> = Set([
    "application/json", "application/xml", "text/xml", "application/vnd.adobe.xfdf", "application/pdf", "image/jpeg", "image/png", "image/tiff",
]).union(OfficeConverter.mediaTypes).union(HTMLConverter.mediaTypes)
