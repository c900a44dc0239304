import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererProviderXFDF
import RendererServerHTTP

/// The document's annotations, read and written through its session and saved into the file;
/// each one answered carries its entity tag in `ETag`, which `If-Match` names on a change.
extension GeneratedRoutes {
    /// The annotations (of one page, `?page=`), as the API's JSON.
    func annotations(_ input: Operations.Annotations.Input) async throws -> Operations.Annotations.Output {
        let document = try await servedDocument()
        let list = try await document.annotations(pageAt: input.query.page)
        return .ok(.init(body: .json(try Self.schema(list))))
    }

    /// Adds the annotation in the body (its `id` may be left out) and saves the file; 201 with
    /// the annotation as stored, its path in `Location`.
    func addAnnotation(_ input: Operations.AddAnnotation.Input) async throws -> Operations.AddAnnotation.Output {
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let annotation = try Self.library(body, as: Annotation.self)
        let stored = try await document.edit { try $0.addAnnotation(annotation) }
        try answerLocation(document: document.id, "annotations", stored.id)
        return .created(.init(body: .json(try answering(stored))))
    }

    /// Adds a stamp that shows the picture in the body (a JPEG or PNG file of at most
    /// ``imageStampPixels`` pixels, within the body limit) and saves the file; 201 with the
    /// stamp as stored, its path in `Location`. The picture is decoded on an engine thread.
    func addImageStamp(_ input: Operations.AddImageStamp.Input) async throws -> Operations.AddImageStamp.Output {
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let stamp = try Self.library(body, as: Payload.ImageStamp.self)
        let stored = try await document.edit { session in
            try session.addImageStamp(stamp.annotation, image: StampImage(data: stamp.image, maximumPixelCount: Self.imageStampPixels))
        }
        try answerLocation(document: document.id, "annotations", stored.id)
        return .created(.init(body: .json(try answering(stored))))
    }

    /// The most pixels a picture sent to the server may have (4096 x 4096): a small file can
    /// hold a picture whose pixels take far more memory than its bytes.
    static let imageStampPixels = 4096 * 4096

    /// The annotation of that identity; 404 when there is none.
    func annotation(_ input: Operations.Annotation.Input) async throws -> Operations.Annotation.Output {
        let document = try await servedDocument()
        let id = input.path.annotation
        guard let found = try await document.annotations(pageAt: nil).first(where: { $0.id == id }) else {
            throw APIError.notFound("there is no annotation \"\(id.prefix(80))\"")
        }
        return .ok(.init(body: .json(try answering(found))))
    }

    /// Replaces the annotation of that identity with the body (whose `id` is ignored) and
    /// saves the file; 404 when there is none, 412 when `If-Match` names another state of it.
    /// Dates the body leaves out keep their stored values (the modification date becomes now).
    func updateAnnotation(_ input: Operations.UpdateAnnotation.Input) async throws -> Operations.UpdateAnnotation.Output {
        let document = try await servedDocument()
        let id = input.path.annotation
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        var annotation = try Self.library(body, as: Annotation.self)
        annotation.id = id
        let (edited, precondition) = (annotation, input.headers.ifMatch)
        let stored = try await document.edit { session in
            try Self.changingExisting(id, in: session, ifMatch: precondition) { try session.updateAnnotation(edited) }
        }
        return .ok(.init(body: .json(try answering(stored))))
    }

    /// Removes the annotation of that identity and saves the file; 204, 404 when the document
    /// holds none, 412 when `If-Match` names another state of it.
    func removeAnnotation(_ input: Operations.RemoveAnnotation.Input) async throws -> Operations.RemoveAnnotation.Output {
        let document = try await servedDocument()
        let (id, precondition) = (input.path.annotation, input.headers.ifMatch)
        try await document.edit { session in
            try Self.changingExisting(id, in: session, ifMatch: precondition) { try session.removeAnnotation(withID: id) }
        }
        return .noContent(.init())
    }

    /// Every annotation as XFDF.
    func exportXFDF(_ input: Operations.ExportXFDF.Input) async throws -> Operations.ExportXFDF.Output {
        let document = try await servedDocument()
        let name = URL(fileURLWithPath: document.id).lastPathComponent
        let data = try await document.withSession { try $0.xfdfData(fileName: name) }
        try answer([.contentType: "application/vnd.adobe.xfdf; charset=utf-8"])
        return .ok(.init(body: .applicationVnd_adobe_xfdf(HTTPBody(data))))
    }

    /// Imports the XFDF in the body (`application/vnd.adobe.xfdf` or `application/xml`; 415
    /// for another media type) and saves the file; answers what was imported and what was
    /// skipped. The XML never loads anything from outside (`SafeXML`).
    func importXFDF(_ input: Operations.ImportXFDF.Input) async throws -> Operations.ImportXFDF.Output {
        let document = try await servedDocument()
        let body: HTTPBody
        switch input.body {
        case .applicationVnd_adobe_xfdf(let xfdf): body = xfdf
        case .xml(let xml): body = xml
        }
        // Within the body limit already (BodyLimitMiddleware).
        let data = try await Data(collecting: body, upTo: routes.bodyLimit)
        let result = try await document.edit { try $0.importXFDF(data) }
        return .ok(.init(body: .json(.init(imported: try Self.schema(result.imported), skipped: result.skipped))))
    }

    /// `annotation` as the document's type, with its entity tag set in `ETag`.
    private func answering(_ annotation: Annotation) throws -> Components.Schemas.Annotation {
        try RequestScopeMiddleware.scope().answer(.eTag, try Self.annotationTag(annotation))
        return try Self.schema(annotation)
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

    /// The entity tag of an annotation's state: a hash of its JSON.
    private static func annotationTag(_ annotation: Annotation) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Routes.eTag(String(decoding: try encoder.encode(annotation), as: UTF8.self))
    }
}
