import Foundation
import RendererProvider
import RendererProviderStore

/// What `serve` and `view` make for a run: a random token, private temporary folders, and
/// where readers' places are kept.
enum RunFiles {
    /// 32 bytes from the system's random generator, in hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    /// A new temporary folder named `prefix-XXXXXX` that only this user can read; the caller
    /// removes it.
    static func privateFolder(named prefix: String) throws -> String {
        var template = Array((NSTemporaryDirectory() + "/\(prefix)-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw RendererError(.ioFailure, "cannot make a temporary folder")
        }
        return String(cString: made)
    }

    /// The reader state database by default: `$XDG_DATA_HOME/hostapp/server-readers.sqlite`.
    static var readerStatePath: String {
        URL(fileURLWithPath: SQLiteStateStore.defaultPath(application: "hostapp")).deletingLastPathComponent()
            .appendingPathComponent("server-readers.sqlite").path
    }
}
