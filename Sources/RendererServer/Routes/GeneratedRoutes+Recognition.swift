import OpenAPIRuntime
import RendererServerHTTP

/// Reading a document's scans with text recognition when a reader asks (`RecognitionJob`).
extension GeneratedRoutes {
    /// What the reading of the document's scans a reader asked for has done
    /// (`RecognitionStatus`); `idle` when none was asked for.
    func recognitionStatus(_ input: Operations.RecognitionStatus.Input) async throws -> Operations.RecognitionStatus.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await document.recognitionStatus(rendererID: try await rendererID(document))))))
    }

    /// Starts reading every page of the document without text of its own with text
    /// recognition, in the background (202); a reading that runs or is done is answered as
    /// it stands (200). After it, the text and search routes, and so the viewer's find and
    /// selection, give the scans' words. 422 `unsupported` on a server that reads no scans.
    func startRecognition(_ input: Operations.StartRecognition.Input) async throws -> Operations.StartRecognition.Output {
        let document = try await servedDocument()
        let (status, started) = try await document.startRecognition(rendererID: try await rendererID(document))
        let body: Components.Schemas.RecognitionStatus = try Self.schema(status)
        return started ? .accepted(.init(body: .json(body))) : .ok(.init(body: .json(body)))
    }

    /// Stops the reading after the page being read; what it read stays read.
    func cancelRecognition(_ input: Operations.CancelRecognition.Input) async throws -> Operations.CancelRecognition.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await document.cancelRecognition(rendererID: try await rendererID(document))))))
    }
}
