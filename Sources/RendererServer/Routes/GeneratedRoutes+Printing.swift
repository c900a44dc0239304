import Foundation
import OpenAPIRuntime
import RendererPrinting
import RendererProvider
import RendererServerHTTP

/// The print server's printers and jobs; printing a document is `POST .../print` (``Routes/printDocument(_:_:)``).
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
}
