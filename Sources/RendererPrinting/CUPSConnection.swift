import CCups
import Foundation
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// One connection to a CUPS print server: the only owner of its `http_t`, closed when the
/// connection goes. libcups keeps its last error per thread, so a connection is used by one
/// call at a time, which reads the error on the thread that made the request; it is never
/// shared, hence not `Sendable`.
final class CUPSConnection {
    let http: OpaquePointer
    /// The server as the messages name it.
    let serverName: String

    /// Connects to `server` ("host:port", "host" for port 631, "[::1]:port", or a local
    /// socket's path; nil for CUPS's own choice: `CUPS_SERVER`, client.conf, then the local
    /// scheduler). A secure connection to a host that is not this machine is encrypted or
    /// not made.
    init(server: String?, secure: Bool) throws {
        // libcups asks the thread's server (not only this connection) whether a printer is
        // local, so the thread's server is this one too.
        cupsSetServer(server)
        let (host, port) = Self.address(server)
        serverName = host.hasPrefix("/") ? "the local print server" : "the print server \(host):\(port)"
        let encryption = secure && !Self.isLocal(host) ? HTTP_ENCRYPTION_REQUIRED : HTTP_ENCRYPTION_IF_REQUESTED
        guard let http = httpConnect2(host, Int32(port), nil, AF_UNSPEC, encryption, 1, 30_000, nil) else {
            throw RendererError(.printerUnreachable, "\(serverName) cannot be reached")
        }
        self.http = http
    }

    deinit { httpClose(http) }

    /// The error for the request that just failed with `status`: the printer refused it (an
    /// IPP client error, or the printer not accepting jobs now), it names no printer, or the
    /// server did not answer.
    func failure(_ status: ipp_status_t, doing what: String) -> RendererError {
        let message = cupsLastErrorString().map { String(cString: $0) } ?? "status \(status.rawValue)"
        switch status.rawValue {
        case IPP_STATUS_ERROR_NOT_FOUND.rawValue:
            return RendererError(.printerNotFound, "\(what): \(message)")
        case 0x0400..<0x0500, IPP_STATUS_ERROR_NOT_ACCEPTING_JOBS.rawValue, IPP_STATUS_ERROR_BUSY.rawValue, IPP_STATUS_ERROR_PRINTER_IS_DEACTIVATED.rawValue:
            return RendererError(.printJobRefused, "\(what): the printer refused it: \(message)")
        default:
            return RendererError(.printerUnreachable, "\(what): \(serverName) did not answer: \(message)")
        }
    }

    /// The host and port of `server`.
    private static func address(_ server: String?) -> (String, Int) {
        let text = server ?? String(cString: cupsServer())
        if text.hasPrefix("/") { return (text, 0) }
        let defaultPort = Int(ippPort())
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            return (host, rest.hasPrefix(":") ? Int(rest.dropFirst()) ?? defaultPort : defaultPort)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let port = Int(parts[1]) { return (String(parts[0]), port) }
        return (text, defaultPort)
    }

    /// Whether `host` is this machine: a local socket or a loopback name or address.
    private static func isLocal(_ host: String) -> Bool {
        host.hasPrefix("/") || host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// A printer at a connection's server and what it supports: the only owner of its
/// `cups_dest_t` and `cups_dinfo_t`.
final class CUPSDestination {
    let connection: CUPSConnection
    let dest: UnsafeMutablePointer<cups_dest_t>
    let info: OpaquePointer

    /// The printer `name` (nil: the server's default).
    init(_ name: String?, on connection: CUPSConnection) throws {
        self.connection = connection
        guard let dest = cupsGetNamedDest(connection.http, name, nil) else {
            let status = cupsLastError()
            if status == IPP_STATUS_OK || status == IPP_STATUS_ERROR_NOT_FOUND {
                throw RendererError(
                    .printerNotFound, name.map { "\(connection.serverName) has no printer named \($0)" } ?? "\(connection.serverName) has no default printer")
            }
            throw connection.failure(status, doing: "looking up the printer")
        }
        guard let info = cupsCopyDestInfo(connection.http, dest) else {
            cupsFreeDests(1, dest)
            throw connection.failure(cupsLastError(), doing: "asking the printer what it supports")
        }
        self.dest = dest
        self.info = info
    }

    deinit {
        cupsFreeDestInfo(info)
        cupsFreeDests(1, dest)
    }

    var name: String { String(cString: dest.pointee.name) }

    /// The values the printer supports for the IPP attribute `attribute`, as text.
    func supported(_ attribute: String) -> [String] {
        guard let values = cupsFindDestSupported(connection.http, dest, info, attribute) else { return [] }
        return (0..<ippGetCount(values)).compactMap { ippGetString(values, $0, nil).map { String(cString: $0) } }
    }

    /// The resolutions the printer takes PWG raster at, in dots per inch.
    func rasterResolutions() -> [Int] {
        guard let values = cupsFindDestSupported(connection.http, dest, info, "pwg-raster-document-resolution-supported") else { return [] }
        return (0..<ippGetCount(values)).map { index in
            var vertical: Int32 = 0
            var units = IPP_RES_PER_INCH
            let horizontal = Int(ippGetResolution(values, index, &vertical, &units))
            return units == IPP_RES_PER_CM ? Int((Double(horizontal) * 2.54).rounded()) : horizontal
        }
    }
}
