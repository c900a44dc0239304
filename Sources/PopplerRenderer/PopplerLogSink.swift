import CPopplerBridge
import Logging

/// Receives Poppler's messages (syntax errors and warnings, which it would print to stderr)
/// and logs them at `notice` to the logger of the renderer whose work made them.
///
/// Poppler has one message hook for the whole process and gives it no context, but it calls
/// it on the thread doing the work. So the hook is installed once, on first use, and each
/// document's engine work runs inside `routing(to:_:)`, which binds that document's
/// renderer's logger to the current thread as a task-local value for the call. Messages from
/// work outside any routing go to a logger labelled `renderer.poppler`.
enum PopplerLogSink {
    @TaskLocal private static var logger: Logger?
    private static let unrouted = Logger(label: "renderer.poppler")

    private static let hook: Void = cpoppler_set_log_callback { message in
        guard let message else { return }
        (PopplerLogSink.logger ?? PopplerLogSink.unrouted).notice("\(String(cString: message))")
    }

    /// Runs `body` with Poppler's messages going to `logger`.
    static func routing<T>(to logger: Logger, _ body: () throws -> T) rethrows -> T {
        _ = hook
        return try $logger.withValue(logger, operation: body)
    }
}
