import Foundation
import ProcessSpawning
import RendererEngine

/// Tries a password on a document in a `gs` child process before this process gives it to
/// Ghostscript: Ghostscript 10.0 crashes (SIGSEGV, in its PDF interpreter) when a password
/// is neither the user nor the owner password (ARCHITECTURE.md). The child reads the
/// password from its standard input, never from its arguments, which other users can see.
enum GhostscriptPassword {
    /// True when Ghostscript opens `file` with `password` and finds pages; false when it
    /// refuses the password or crashes on it.
    static func opens(_ file: GhostscriptFile, with password: String) throws -> Bool {
        let input = try pipe(), output = try pipe()
        let child: ChildProcess
        do {
            child = try ChildProcess(
                "gs", ["-q", "-dNODISPLAY", "-dSAFER", "-dBATCH", "-dNOPAUSE"] + file.readingArguments + ["-"],
                standardInput: .descriptor(input.reading), standardOutput: .descriptor(output.writing))
        } catch let error as SpawnError {
            let reason = error.code == ENOENT ? "Ghostscript's gs command, which checks passwords, is not installed" : "\(error)"
            throw RendererError(.engineFailure, reason, rendererID: Ghostscript.rendererID)
        }
        // The child holds its own ends now; the output's writing end closes with it alone.
        input.closeReading()
        output.closeWriting()
        let hex = Data(password.utf8).map { String(format: "%02x", $0) }.joined()
        let program = Array("/PDFPassword <\(hex)> def InputFile (r) file runpdfbegin pdfpagecount = runpdfend quit\n".utf8)
        ProcessPipe.write(program, to: input.writing)
        input.closeWriting()
        var printed = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output.reading, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            printed += buffer[0..<count]
        }
        guard child.wait() == .exited(0) else { return false }
        let pages = String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isNewline).last.flatMap { Int($0) }
        return (pages ?? 0) > 0
    }

    private static func pipe() throws -> ProcessPipe {
        do { return try ProcessPipe() } catch { throw RendererError(.engineFailure, "cannot start gs: \(error)", rendererID: Ghostscript.rendererID) }
    }
}
