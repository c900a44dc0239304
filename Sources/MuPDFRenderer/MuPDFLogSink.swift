import CMuPDF
import Logging

/// Receives one MuPDF context's warnings and error reports and logs them: warnings at
/// `warning`, error reports (most of which MuPDF recovers from, the rest reach the caller
/// as errors) at `notice`.
final class MuPDFLogSink {
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The C callback; its user pointer is an unretained `MuPDFLogSink`.
    static let callback: cmupdf_log_callback = { user, isError, message in
        guard let user, let message else { return }
        let sink = Unmanaged<MuPDFLogSink>.fromOpaque(user).takeUnretainedValue()
        sink.logger.log(level: isError != 0 ? .notice : .warning, "\(String(cString: message))")
    }
}
