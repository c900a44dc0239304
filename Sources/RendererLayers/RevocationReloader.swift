import Logging
import RendererCollaboration
import ServiceLifecycle
import UnixSignals

/// Reads the collaboration tokens' revocation list again each time the server gets SIGHUP,
/// for as long as the server runs. A list that cannot be read keeps what it had, and the
/// log says why.
package struct RevocationReloader: Service {
    let list: RevocationList
    let logger: Logger

    package init(list: RevocationList, logger: Logger) {
        (self.list, self.logger) = (list, logger)
    }

    package func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            do {
                try list.reload()
                logger.notice("read the token revocation list again: \(list.count) revoked")
            } catch {
                logger.error("kept the token revocation list as it was: \(error)")
            }
        }
    }
}
