import Foundation
import Hummingbird
import NIOPosix
import RendererPrinting
import RendererProvider
import RendererServerHTTP

extension Routes {
    /// `GET /api/printers`: the printers of the server's print server (``ServerConfiguration/printing``);
    /// 404 when the server does not print.
    @Sendable func printers(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let service = try printService()
        return try Self.json(Payload.Printers(printers: try await Self.blocking { try service.printers() }))
    }

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

    /// `GET /api/printers/{printer}/jobs/{job}`: where a job stands (``Payload/PrintJobStatus``);
    /// 404 for a job the print server does not know.
    @Sendable func printJobState(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let service = try printService()
        let printer = try Self.pathParameter("printer", context)
        guard let id = Int(try Self.pathParameter("job", context)), id > 0 else { throw APIError.badRequest("a job is a number from 1") }
        let job = PrintJob(id: id, printer: printer)
        do {
            return try Self.json(Payload.PrintJobStatus(state: try await Self.blocking { try service.state(of: job) }))
        } catch let error as RendererError where error.code == .printJobFailed {
            throw APIError.notFound("\(printer) has no job \(id)")  // the print server does not know it
        }
    }

    private func printService() throws -> PrintService {
        guard let service = context.configuration.printing else { throw APIError.notFound("this server does not print; the viewer prints through the browser") }
        return service
    }

    /// Runs a blocking call to the print server on NIO's thread pool for blocking work, off
    /// the event loops and the engines' queue.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}

extension Payload {
    /// `GET /api/printers`.
    struct Printers: Codable {
        var printers: [PrintService.Printer]
    }

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

    /// `GET /api/printers/{printer}/jobs/{job}`.
    struct PrintJobStatus: Codable {
        var state: PrintJobState
    }
}
