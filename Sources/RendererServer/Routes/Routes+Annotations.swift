import Foundation
import Hummingbird
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

extension Routes {
    /// `GET .../annotations[?page=]`: the annotations (of one page), as the API's JSON.
    @Sendable func annotations(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let page = try Self.query("page", request, as: Int.self)
        let list = try await document.annotations(pageAt: page)
        return Self.data(try Annotation.jsonData(list), type: "application/json; charset=utf-8")
    }

    /// `POST .../annotations`: adds the annotation in the body (its `id` may be left out)
    /// and saves the file; answers 201 with the annotation as stored, and its path in `Location`.
    @Sendable func addAnnotation(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let annotation = try await decode(Annotation.self, from: request)
        let stored = try await document.edit { try $0.addAnnotation(annotation) }
        return try Self.annotationResponse(stored, status: .created, headers: Self.location(document: document.id, "annotations", stored.id))
    }

    /// `POST .../image-stamps`: adds a stamp that shows the picture in the body (a JPEG or PNG
    /// file of at most ``imageStampPixels`` pixels, within the body limit) and saves the file;
    /// answers 201 with the stamp as stored and its path in `Location`. The picture is decoded
    /// on an engine thread.
    @Sendable func addImageStamp(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let stamp = try await decode(Payload.ImageStamp.self, from: request)
        let stored = try await document.edit { session in
            try session.addImageStamp(stamp.annotation, image: StampImage(data: stamp.image, maximumPixelCount: Self.imageStampPixels))
        }
        return try Self.annotationResponse(stored, status: .created, headers: Self.location(document: document.id, "annotations", stored.id))
    }

    /// The most pixels a picture sent to the server may have (4096 x 4096): a small file can
    /// hold a picture whose pixels take far more memory than its bytes.
    static let imageStampPixels = 4096 * 4096

    /// `GET .../annotations/{annotation}`: the annotation of that identity, with its entity
    /// tag in `ETag` (for `If-Match` on a change); 404 when there is none.
    @Sendable func annotation(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let id = try Self.pathParameter("annotation", context)
        guard let found = try await document.annotations(pageAt: nil).first(where: { $0.id == id }) else {
            throw APIError.notFound("there is no annotation \"\(id.prefix(80))\"")
        }
        return try Self.annotationResponse(found)
    }

    /// `PUT .../annotations/{annotation}`: replaces the annotation of that identity with the
    /// body (whose `id` is ignored) and saves the file; 404 when there is none, 412 when
    /// `If-Match` names another state of it. Dates the body leaves out keep their stored
    /// values (the modification date becomes now).
    @Sendable func updateAnnotation(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let id = try Self.pathParameter("annotation", context)
        var annotation = try await decode(Annotation.self, from: request)
        annotation.id = id
        let edited = annotation
        let precondition = request.headers[.ifMatch]
        let stored = try await document.edit { session in
            try Self.changingExisting(id, in: session, ifMatch: precondition) { try session.updateAnnotation(edited) }
        }
        return try Self.annotationResponse(stored)
    }

    /// `DELETE .../annotations/{annotation}`: removes it and saves the file; 204, 404 when
    /// the document holds no annotation of that identity, 412 when `If-Match` names another
    /// state of it.
    @Sendable func removeAnnotation(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let id = try Self.pathParameter("annotation", context)
        let precondition = request.headers[.ifMatch]
        try await document.edit { session in
            try Self.changingExisting(id, in: session, ifMatch: precondition) { try session.removeAnnotation(withID: id) }
        }
        return Response(status: .noContent)
    }

    /// Runs `change` of the annotation `id` in `session`. When the document holds no
    /// annotation of that identity, the library's refusal of the change is answered 404
    /// (a setting or permission that forbids the change still answers first, with its own).
    /// With `ifMatch` (an `If-Match` header: `*` or entity tags), the change runs only when
    /// the annotation exists (else 404) and, unless `*`, its current tag is among them (else
    /// 412).
    private static func changingExisting<T>(_ id: String, in session: ReadingSession, ifMatch: String?, _ change: () throws -> T) throws -> T {
        if let ifMatch {
            guard let current = try session.annotations().first(where: { $0.id == id }) else {
                throw APIError.notFound("there is no annotation \"\(id.prefix(80))\"")
            }
            let tags = ifMatch.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            let tag = try annotationTag(current)
            guard tags.contains("*") || tags.contains(tag) else {
                throw APIError.preconditionFailed("annotation \"\(id.prefix(80))\" changed since the state If-Match names; read it again")
            }
        }
        do {
            return try change()
        } catch let error as RendererError where error.code == .invalidArgument {
            // A refused change changed nothing: the document is as it was asked about.
            guard try session.annotations().contains(where: { $0.id == id }) else { throw APIError.notFound(error.message) }
            throw error
        }
    }

    /// `GET .../annotations.xfdf`: every annotation as XFDF.
    @Sendable func exportXFDF(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let name = URL(fileURLWithPath: document.id).lastPathComponent
        let data = try await document.withSession { try $0.xfdfData(fileName: name) }
        return Self.data(data, type: "application/vnd.adobe.xfdf; charset=utf-8")
    }

    /// `POST .../annotations.xfdf`: imports the XFDF in the body and saves the file.
    @Sendable func importXFDF(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let data = try await body(request)
        let result = try await document.edit { try $0.importXFDF(data) }
        return try Self.json(Payload.ImportSummary(imported: result.imported, skipped: result.skipped))
    }

    /// `annotation` as the API's JSON, with its entity tag in `ETag`.
    private static func annotationResponse(_ annotation: Annotation, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        var headers = headers
        headers[.eTag] = try annotationTag(annotation)
        return data(try annotationJSON(annotation), type: "application/json; charset=utf-8", status: status, headers: headers)
    }

    /// The entity tag of an annotation's state: a hash of its JSON.
    private static func annotationTag(_ annotation: Annotation) throws -> String {
        eTag(String(decoding: try annotationJSON(annotation), as: UTF8.self))
    }

    private static func annotationJSON(_ annotation: Annotation) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(annotation)
    }
}
