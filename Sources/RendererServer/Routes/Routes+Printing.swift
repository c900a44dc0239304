import Foundation
import Hummingbird
import NIOPosix
import RendererPrinting
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `POST /api/documents/{id}/print`: sends the document, as saved, to a printer with the
    /// body's options (``Payload/PrintRequest``); 202 with the job (``PrintJob``), 403 when
    /// the settings or the PDF refuse printing, 404 for a printer that is not there, 409
    /// when the printer refuses the job, 502 when the print server fails.
    @Sendable func printDocument(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let service = try printService()
        let document = try await servedDocument(request, context)
        try await document.require(.printing)
        let options = try await decode(Payload.PrintRequest.self, from: request).options
        let secure = self.context.configuration.settings[.securePrinting].enabled
        let title = URL(fileURLWithPath: document.id).lastPathComponent
        let job = try await engineWork(request, context) { document, _ in
            try service.print(document, title: title, options: options, secure: secure)
        }
        return try Self.json(job, status: .accepted)
    }

    func printService() throws -> PrintService {
        guard let service = context.configuration.printing else { throw APIError.notFound("this server does not print; the viewer prints through the browser") }
        return service
    }

    /// Runs a blocking call to the print server on NIO's thread pool for blocking work, off
    /// the event loops and the engines' queue.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}

extension Payload {
    /// The body of `POST .../print`: each option may be left out (the defaults of
    /// ``PrintOptions``); `pages` are 0-based indices.
    struct PrintRequest: Codable {
        var printer: String?
        var pages: [Int]?
        var copies: Int?
        var sides: PrintOptions.Sides?
        var scaling: PrintOptions.Scaling?
        var grayscale: Bool?

        var options: PrintOptions {
            PrintOptions(
                printer: printer, pages: pages, copies: copies ?? 1, sides: sides ?? .oneSided, scaling: scaling ?? .fit, grayscale: grayscale ?? false)
        }
    }
}
