/// A job a print server took: its id at the printer, and where it stands.
public struct PrintJob: Hashable, Sendable, Codable {
    /// The job's id at the print server.
    public var id: Int
    /// The printer (queue) that took it.
    public var printer: String
    /// What was sent: `application/pdf`, or `image/pwg-raster` when the printer takes no PDF.
    public var documentFormat: String
    /// How many pages were sent (for one copy).
    public var pageCount: Int

    /// The job `id` at `printer` (a job known by its id, to follow it: the format and the
    /// page count are what was sent, when known).
    public init(id: Int, printer: String, documentFormat: String = "", pageCount: Int = 0) {
        self.id = id
        self.printer = printer
        self.documentFormat = documentFormat
        self.pageCount = pageCount
    }
}

/// Where a print job stands, as the print server reports it (IPP's `job-state`).
public enum PrintJobState: String, Hashable, Sendable, Codable {
    /// Waiting for the printer.
    case pending
    /// Held at the server until it is released.
    case held
    /// Being printed.
    case processing
    /// Waiting for the printer's attention (out of paper, stopped).
    case stopped
    /// Cancelled before it was printed.
    case canceled
    /// Ended by the server for an error.
    case aborted
    /// Printed.
    case completed

    /// Whether the job has ended, well or not.
    public var isFinal: Bool { [.canceled, .aborted, .completed].contains(self) }
}
