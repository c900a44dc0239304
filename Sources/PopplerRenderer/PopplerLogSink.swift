import CPopplerCpp
import Logging
import RendererProvider

/// Receives Poppler's messages (syntax errors and warnings, which it would print to stderr)
/// and logs them at `notice`. Poppler has one message hook for the whole process, so the
/// logger of the most recently created ``PopplerRenderer`` receives them.
enum PopplerLogSink {
    private static let current = Locked<Logger?>(nil)

    static func install(_ logger: Logger) {
        current.withLock { $0 = logger }
        cpoppler_set_log_callback { message in
            guard let message else { return }
            let text = String(cString: message)
            PopplerLogSink.current.withLock { $0 }?.notice("\(text)")
        }
    }
}
