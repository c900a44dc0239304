import Foundation
import RendererProvider
import RendererProviderStore

/// What `serve` and `view` make for a run: a random token, and where readers' places are
/// kept (their private temporary folders are ``TemporaryFolder``'s).
enum RunFiles {
    /// 32 bytes from the system's random generator, in hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(hexadecimal: (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// The reader state database by default: `$XDG_DATA_HOME/hostapp/server-readers.sqlite`.
    static var readerStatePath: String {
        URL(fileURLWithPath: SQLiteStateStore.defaultPath(application: "hostapp")).deletingLastPathComponent()
            .appendingPathComponent("server-readers.sqlite").path
    }
}
