import Foundation
import Hummingbird
import NIOPosix
import RendererPrinting
import RendererProvider
import RendererServerHTTP

/// What printing through the server's print server needs; its routes are
/// ``GeneratedRoutes`` `+Printing`.
extension Routes {
    /// The server's print server (``ServerConfiguration/printing``); 404 when it prints none.
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
