import Foundation
import Logging
import MuPDFRenderer
import PopplerRenderer
import RendererProvider
import Testing
import TestSupport

/// Engine messages go to the logger of the renderer whose document made them, never to
/// another renderer's logger.
@Suite("Engine messages")
struct EngineLogTests {
    /// A log handler that keeps every message it is given.
    final class Capture: LogHandler, @unchecked Sendable {
        // @unchecked Sendable: `messages` is only touched under `lock`.
        private let lock = NSLock()
        private var stored: [String] = []
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lock.lock()
            stored.append(event.message.description)
            lock.unlock()
        }
        var messages: [String] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        var logger: Logger { Logger(label: "test") { _ in self } }
    }

    /// `truncated.pdf` makes both engines try to repair it, and say why.
    @Test func aDamagedFileIsReportedToItsRenderersLogger() {
        let (mupdfLog, popplerLog, otherLog) = (Capture(), Capture(), Capture())
        let registry = RendererRegistry([MuPDFRenderer(logger: mupdfLog.logger), PopplerRenderer(logger: popplerLog.logger)])
        _ = PopplerRenderer(logger: otherLog.logger)  // made later, used for nothing: it must hear nothing
        for backend in ["mupdf", "poppler"] {
            #expect(throws: RendererError.self) { try registry.open(.file(Fixtures.path("truncated.pdf")), renderer: .id(backend)) }
        }
        #expect(!mupdfLog.messages.isEmpty)
        #expect(!popplerLog.messages.isEmpty)
        #expect(otherLog.messages.isEmpty, "\(otherLog.messages)")
    }
}
