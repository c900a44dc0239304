import Hummingbird
import RendererServerHTTP

extension Routes {
    /// `GET .../recognition?renderer=`: what the reading of the document's scans a reader
    /// asked for has done (`RecognitionStatus`); `idle` when none was asked for.
    @Sendable func recognitionStatus(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        return try Self.json(try await document.recognitionStatus(rendererID: try await rendererID(request, document)))
    }

    /// `POST .../recognition?renderer=`: starts reading every page of the document without
    /// text of its own with text recognition, in the background (202); a reading that runs or
    /// is done is answered as it stands (200). After it, the text and search routes, and so
    /// the viewer's find and selection, give the scans' words. 422 `unsupported` on a server
    /// that reads no scans.
    @Sendable func startRecognition(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let (status, started) = try await document.startRecognition(rendererID: try await rendererID(request, document))
        return try Self.json(status, status: started ? .accepted : .ok)
    }

    /// `DELETE .../recognition`: stops the reading after the page being read; what it read
    /// stays read.
    @Sendable func cancelRecognition(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        return try Self.json(try await document.cancelRecognition(rendererID: try await rendererID(request, document)))
    }
}
