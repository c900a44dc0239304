import RendererProvider

/// The errors of printing: a printer that is missing, unreachable, or refuses or fails a job.
extension RendererError.Code {
    /// No printer of that name at the print server, or no default printer.
    public static let printerNotFound = Self(rawValue: "printer-not-found")
    /// The print server could not be reached, or stopped answering.
    public static let printerUnreachable = Self(rawValue: "printer-unreachable")
    /// The printer refused the job (not accepting jobs, an option it does not take, the
    /// document too large).
    public static let printJobRefused = Self(rawValue: "print-job-refused")
    /// The job ended without being printed (aborted or cancelled at the server).
    public static let printJobFailed = Self(rawValue: "print-job-failed")
}
