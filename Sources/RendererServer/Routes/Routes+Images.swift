import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/documents/{id}/images/{number}`: one image (its number in the list) as a
    /// file: JPEG or JPEG 2000 as the PDF stores it, any other as PNG (`Document.imageFile`).
    /// A download, when the settings let readers save the document elsewhere (`saveTo`) and
    /// copy out of it (`copying`, which the PDF's copy permission rules too; 403 otherwise); 400 for a number that is not one, 404 past the
    /// list, 422 for an image that cannot be made gray or RGB.
    @Sendable func imageFile(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        try await document.require(.saveTo)
        try await document.require(.copying)
        guard let text = context.parameters.get("number"), let number = Int(text), number >= 0 else {
            throw APIError.badRequest("the image must be a number from 0 (the first of the list)")
        }
        let file = try await engineWork(request, context) { document, _ -> ImageFile in
            let images = try document.images()
            guard images.indices.contains(number) else { throw APIError.notFound("the pages draw no image \(number); they draw \(images.count)") }
            return try document.imageFile(images[number])
        }
        let name = URL(fileURLWithPath: document.id).deletingPathExtension().lastPathComponent + "-\(number).\(file.format.fileExtension)"
        return Self.sandboxedDownload(file.data, type: file.format.mediaType, name: name)
    }
}
