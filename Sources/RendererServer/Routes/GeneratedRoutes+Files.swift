import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// What a document holds as files of their own (its attachments, the images its pages draw),
/// each answered as a download that is never shown as a page of this server: a sandbox
/// policy, `nosniff`, a safe file name, so that an HTML or SVG file inside a PDF cannot run
/// as one.
extension GeneratedRoutes {
    /// One attachment's bytes (`application/octet-stream`), when the settings let readers save
    /// the document elsewhere (`saveTo`); 404 past the list.
    func attachmentContents(_ input: Operations.AttachmentContents.Input) async throws -> Operations.AttachmentContents.Output {
        let document = try await servedDocument()
        try await document.require(.saveTo)
        let index = input.path.index
        guard index >= 0 else { throw APIError.badRequest("the attachment must be an index from 0 (the first of the list)") }
        let (name, bytes) = try await engineWork { document, _ -> (String, Data) in
            let attachments = try document.attachments()
            guard attachments.indices.contains(index) else { throw APIError.notFound("the document has no attachment \(index)") }
            return (attachments[index].safeFileName ?? "attachment-\(index + 1)", try document.attachmentContents(at: index))
        }
        try answer(Routes.sandboxedDownloadHeaders(name: name))
        return .ok(.init(body: .binary(HTTPBody(bytes))))
    }

    /// One image (its number in the list) as a file: JPEG or JPEG 2000 as the PDF stores it,
    /// any other as PNG (`Document.imageFile`), when the settings let readers save the
    /// document elsewhere (`saveTo`) and copy out of it (`copying`, which the PDF's copy
    /// permission rules too; 403 otherwise); 404 past the list, 422 for an image that cannot
    /// be made gray or RGB.
    func imageFile(_ input: Operations.ImageFile.Input) async throws -> Operations.ImageFile.Output {
        let document = try await servedDocument()
        try await document.require(.saveTo)
        try await document.require(.copying)
        let number = input.path.number
        guard number >= 0 else { throw APIError.badRequest("the image must be a number from 0 (the first of the list)") }
        let file = try await engineWork { document, _ -> ImageFile in
            let images = try document.images()
            guard images.indices.contains(number) else { throw APIError.notFound("the pages draw no image \(number); they draw \(images.count)") }
            return try document.imageFile(images[number])
        }
        try answer(Routes.sandboxedDownloadHeaders(name: URL(fileURLWithPath: document.id).deletingPathExtension().lastPathComponent + "-\(number).\(file.format.fileExtension)"))
        let body = HTTPBody(file.data)
        return switch file.format {
        case .jpeg: .ok(.init(body: .jpeg(body)))
        case .jpeg2000: .ok(.init(body: .imageJp2(body)))
        case .png: .ok(.init(body: .png(body)))
        }
    }
}
