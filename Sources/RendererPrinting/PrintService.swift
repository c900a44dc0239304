import CCups
import Foundation
import RendererProvider

/// Printing through a CUPS print server over IPP, with libcups: the printers it offers, a
/// document sent to one of them, and where the job stands.
///
/// A document goes as the PDF itself (with its unsaved changes) when the printer takes PDF,
/// and otherwise as its pages drawn at the printer's resolution, as PWG raster. Either way
/// the job is made in memory and streamed to the server: the provider writes no copy of the
/// document or its pages to disk. Errors are `RendererError`s with the codes
/// `printerNotFound`, `printerUnreachable`, `printJobRefused` and `printJobFailed`.
///
/// ```swift
/// let service = PrintService(server: "localhost:631")
/// let job = try service.print(document, title: "report.pdf", options: PrintOptions(printer: "office", copies: 2))
/// for try await state in service.progress(of: job) { print(state) }
/// ```
public struct PrintService: Sendable {
    /// A printer (a CUPS queue) the server offers.
    public struct Printer: Hashable, Sendable, Codable {
        /// The queue's name.
        public var name: String
        /// Whether the server prints there when no printer is named.
        public var isDefault: Bool
        /// Whether it takes jobs now.
        public var isAcceptingJobs: Bool
        /// Its description, as the server's administrator wrote it.
        public var info: String?
    }

    /// The print server: "host:port", "host" (port 631), "[::1]:port" or a local socket's
    /// path; nil for CUPS's own choice (`CUPS_SERVER`, client.conf, then the local scheduler).
    public let server: String?

    /// Printing at `server`.
    public init(server: String? = nil) {
        self.server = server
    }

    /// The printers the server offers.
    public func printers() throws -> [Printer] {
        let connection = try CUPSConnection(server: server, secure: false)
        var dests: UnsafeMutablePointer<cups_dest_t>?
        let count = Int(cupsGetDests2(connection.http, &dests))
        defer { cupsFreeDests(Int32(count), dests) }
        if count == 0, cupsLastError() != IPP_STATUS_OK, cupsLastError() != IPP_STATUS_ERROR_NOT_FOUND {
            throw connection.failure(cupsLastError(), doing: "listing the printers")
        }
        return (0..<count).compactMap { index in
            guard let dest = dests?[index], dest.instance == nil else { return nil }
            func option(_ name: String) -> String? { cupsGetOption(name, dest.num_options, dest.options).map { String(cString: $0) } }
            return Printer(
                name: String(cString: dest.name), isDefault: dest.is_default != 0,
                isAcceptingJobs: option("printer-is-accepting-jobs") != "false", info: option("printer-info"))
        }
    }

    /// Sends `document` (with its unsaved changes) to the printer `options` names, and
    /// returns the job the server took. `title` names the job at the server; a `secure` job
    /// is named "document" whatever `title` says, and is sent only over an encrypted
    /// connection unless the server is on this machine.
    ///
    /// Nothing is left half done: a job whose document could not be sent whole is cancelled.
    public func print(_ document: Document, title: String?, options: PrintOptions = PrintOptions(), secure: Bool = false) throws -> PrintJob {
        guard (1...9_999).contains(options.copies) else {
            throw RendererError(.invalidArgument, "copies must be 1 to 9999, not \(options.copies)")
        }
        let pages = try Self.pages(options.pages, of: document)
        let connection = try CUPSConnection(server: server, secure: secure)
        let printer = try CUPSDestination(options.printer, on: connection)
        let formats = printer.supported("document-format")
        let format: String
        if document.contentType == .pdf, formats.contains("application/pdf") {
            format = "application/pdf"
        } else if formats.contains("image/pwg-raster") {
            format = "image/pwg-raster"
        } else {
            throw RendererError(.printJobRefused, "\(printer.name) takes neither PDF nor PWG raster; it takes \(formats.joined(separator: ", "))")
        }
        // The PDF is made before the job, so that a document that cannot be written makes no job.
        let pdf = format == "application/pdf" ? try document.pdfData() : nil

        let jobOptions = JobOptions()
        jobOptions.add("copies", "\(options.copies)")
        jobOptions.add("sides", options.sides.rawValue)
        jobOptions.add("print-scaling", options.scaling.rawValue)
        jobOptions.add("print-color-mode", options.grayscale ? "monochrome" : "color")
        if options.held { jobOptions.add("job-hold-until", "indefinite") }
        if pdf != nil, let ranges = options.pageRanges { jobOptions.add("page-ranges", ranges) }

        let name = Self.jobName(secure ? nil : title)
        var id: Int32 = 0
        let created = jobOptions.withOptions { count, list in cupsCreateDestJob(connection.http, printer.dest, printer.info, &id, name, count, list) }
        guard created == IPP_STATUS_OK || created == IPP_STATUS_OK_IGNORED_OR_SUBSTITUTED else {
            throw connection.failure(created, doing: "sending the job to \(printer.name)")
        }
        do {
            guard cupsStartDestDocument(connection.http, printer.dest, printer.info, id, name, format, 0, nil, 1) == HTTP_STATUS_CONTINUE else {
                throw connection.failure(cupsLastError(), doing: "sending the document to \(printer.name)")
            }
            if let pdf {
                try Self.send(pdf, on: connection, to: printer)
            } else {
                try PWGRasterWriter(connection: connection, printer: printer, options: options).write(pages, of: document)
            }
            let finished = cupsFinishDestDocument(connection.http, printer.dest, printer.info)
            guard finished == IPP_STATUS_OK || finished == IPP_STATUS_OK_IGNORED_OR_SUBSTITUTED else {
                throw connection.failure(finished, doing: "finishing the document for \(printer.name)")
            }
        } catch {
            // On a fresh connection: the one that failed may be in the middle of a request.
            if let again = try? CUPSConnection(server: server, secure: secure), let same = try? CUPSDestination(options.printer, on: again) {
                _ = cupsCancelDestJob(again.http, same.dest, id)
            }
            throw error
        }
        return PrintJob(id: Int(id), printer: printer.name, documentFormat: format, pageCount: pages.count)
    }

    /// The name a job and its document go under at the print server (`job-name` and
    /// `document-name`): `title` with each character other than an ASCII letter, digit, `.`,
    /// `-` or `_` made `_`, at most 200 characters, since Debian 12's cupsd dies on a
    /// document name that holds a space; "document" when there is no title or nothing of it
    /// is left.
    static func jobName(_ title: String?) -> String {
        let kept = (title ?? "").unicodeScalars.prefix(200).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-_".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return kept.contains(where: { $0 != "_" && $0 != "." }) ? String(kept) : "document"
    }

    /// Where `job` stands now.
    public func state(of job: PrintJob) throws -> PrintJobState {
        let connection = try CUPSConnection(server: server, secure: false)
        // Get-Job-Attributes for this one job: the server's whole job history is never listed.
        let request = ippNewRequest(IPP_OP_GET_JOB_ATTRIBUTES)
        ippAddString(request, IPP_TAG_OPERATION, IPP_TAG_URI, "job-uri", nil, "ipp://localhost/jobs/\(job.id)")
        let response = cupsDoRequest(connection.http, request, "/")
        defer { ippDelete(response) }
        let status = cupsLastError()
        guard status == IPP_STATUS_OK || status == IPP_STATUS_OK_IGNORED_OR_SUBSTITUTED || status == IPP_STATUS_ERROR_NOT_FOUND else {
            throw connection.failure(status, doing: "asking for job \(job.id)")
        }
        // A job of another printer is not this printer's job.
        let printer = ippFindAttribute(response, "job-printer-uri", IPP_TAG_URI).flatMap { ippGetString($0, 0, nil) }.map { String(cString: $0) }
        guard status != IPP_STATUS_ERROR_NOT_FOUND, let printer, printer.split(separator: "/").last.map(String.init) == job.printer,
            let state = ippFindAttribute(response, "job-state", IPP_TAG_ENUM)
        else {
            throw RendererError(.printJobFailed, "\(connection.serverName) no longer knows job \(job.id) at \(job.printer)")
        }
        return PrintJobState(ipp_jstate_t(UInt32(ippGetInteger(state, 0))))
    }

    /// Each state `job` goes through from now, polled every `interval`, ending after the
    /// first final one (completed, aborted or cancelled); it throws when the server stops
    /// answering. Ending the iteration stops the polling.
    public func progress(of job: PrintJob, every interval: Duration = .milliseconds(250)) -> AsyncThrowingStream<PrintJobState, any Error> {
        AsyncThrowingStream { continuation in
            let polling = Task {
                var last: PrintJobState?
                do {
                    while !Task.isCancelled {
                        let state = try self.state(of: job)
                        if state != last { continuation.yield(state) }
                        last = state
                        if state.isFinal { break }
                        try await Task.sleep(for: interval)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in polling.cancel() }
        }
    }

    /// Waits for `job` to end, telling `onState` each state it goes through: returns when it
    /// completed, throws `printJobFailed` when it was aborted or cancelled,
    /// `printerUnreachable` when the server stopped answering.
    public func waitUntilFinished(
        _ job: PrintJob, every interval: Duration = .milliseconds(250), onState: (PrintJobState) -> Void = { _ in }
    ) async throws {
        var last: PrintJobState?
        for try await state in progress(of: job, every: interval) {
            last = state
            onState(state)
        }
        guard let last, last == .completed else {
            throw RendererError(.printJobFailed, "job \(job.id) at \(job.printer) ended \(last?.rawValue ?? "without a state") and was not printed")
        }
    }

    /// Cancels `job` at the server.
    public func cancel(_ job: PrintJob) throws {
        let connection = try CUPSConnection(server: server, secure: false)
        let printer = try CUPSDestination(job.printer, on: connection)
        let status = cupsCancelDestJob(connection.http, printer.dest, Int32(job.id))
        guard status == IPP_STATUS_OK else { throw connection.failure(status, doing: "cancelling job \(job.id)") }
    }

    /// The 0-based indices of `selection` in the document's order (all pages when nil).
    private static func pages(_ selection: [Int]?, of document: Document) throws -> [Int] {
        let count = document.pageCount
        guard let selection else { return Array(0..<count) }
        guard !selection.isEmpty else { throw RendererError(.invalidArgument, "no page is selected to print") }
        if let outside = selection.first(where: { !(0..<count).contains($0) }) {
            throw RendererError(.pageOutOfRange, "page index \(outside) is out of range: the document has \(count) page\(count == 1 ? "" : "s")")
        }
        return Set(selection).sorted()
    }

    /// Streams `bytes` as the job's document, a chunk at a time.
    private static func send(_ bytes: Data, on connection: CUPSConnection, to printer: CUPSDestination) throws {
        let chunk = 1 << 16
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + chunk, bytes.count)
            let status = bytes[offset..<end].withUnsafeBytes { piece in
                cupsWriteRequestData(connection.http, piece.baseAddress!.assumingMemoryBound(to: CChar.self), piece.count)
            }
            guard status == HTTP_STATUS_CONTINUE else {
                throw RendererError(.printerUnreachable, "sending the document to \(printer.name): \(connection.serverName) stopped taking it")
            }
            offset = end
        }
    }
}

extension PrintJobState {
    init(_ state: ipp_jstate_t) {
        switch state {
        case IPP_JSTATE_PENDING: self = .pending
        case IPP_JSTATE_HELD: self = .held
        case IPP_JSTATE_PROCESSING: self = .processing
        case IPP_JSTATE_STOPPED: self = .stopped
        case IPP_JSTATE_CANCELED: self = .canceled
        case IPP_JSTATE_ABORTED: self = .aborted
        default: self = .completed
        }
    }
}

/// A job's options as libcups keeps them: the only owner of the `cups_option_t` list.
private final class JobOptions {
    private var count: Int32 = 0
    private var list: UnsafeMutablePointer<cups_option_t>?

    deinit { cupsFreeOptions(count, list) }

    func add(_ name: String, _ value: String) { count = cupsAddOption(name, value, count, &list) }

    func withOptions<T>(_ body: (Int32, UnsafeMutablePointer<cups_option_t>?) -> T) -> T { body(count, list) }
}
