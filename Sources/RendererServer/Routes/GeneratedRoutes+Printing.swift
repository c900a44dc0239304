import Foundation
import OpenAPIRuntime
import RendererPrinting
import RendererProvider
import RendererServerHTTP

/// The print server's printers and jobs, and printing a document there.
extension GeneratedRoutes {
    /// The printers of the server's print server (``ServerConfiguration/printing``); 404 when
    /// the server does not print.
    func printers(_ input: Operations.Printers.Input) async throws -> Operations.Printers.Output {
        let service = try routes.printService()
        let printers = try await Routes.blocking { try service.printers() }
        return .ok(.init(body: .json(.init(printers: try Self.schema(printers)))))
    }

    /// Where a print job stands; 404 for a job the print server does not know.
    func printJobState(_ input: Operations.PrintJobState.Input) async throws -> Operations.PrintJobState.Output {
        let service = try routes.printService()
        let (printer, id) = (input.path.printer, input.path.job)
        guard id > 0 else { throw APIError.badRequest("a job is a number from 1") }
        do {
            let state = try await Routes.blocking { try service.state(of: PrintJob(id: id, printer: printer)) }
            return .ok(.init(body: .json(.init(state: try Self.schema(state)))))
        } catch let error as RendererError where error.code == .printJobFailed {
            throw APIError.notFound("\(printer) has no job \(id)")  // the print server does not know it
        }
    }

    /// Sends the document, as saved, to a printer with the body's options
    /// (``Payload/PrintRequest``); 202 with the job (``PrintJob``), 403 when the settings or the
    /// PDF refuse printing, 404 for a printer that is not there, 409 when the printer refuses
    /// the job, 502 when the print server fails.
    func printDocument(_ input: Operations.PrintDocument.Input) async throws -> Operations.PrintDocument.Output {
        let service = try routes.printService()
        let document = try await servedDocument()
        try await document.require(.printing)
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let options = try Self.library(body, as: Payload.PrintRequest.self).options
        let secure = context.configuration.settings[.securePrinting].enabled
        let title = URL(fileURLWithPath: document.id).lastPathComponent
        let job = try await engineWork { document, _ in try service.print(document, title: title, options: options, secure: secure) }
        return .accepted(.init(body: .json(try Self.schema(job))))
    }
}
