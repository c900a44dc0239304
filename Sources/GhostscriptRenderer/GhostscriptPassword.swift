import Foundation
import RendererEngine

/// Tries a password on a document in a `gs` child process before this process gives it to
/// Ghostscript: Ghostscript 10.0 crashes (SIGSEGV, in its PDF interpreter) when a password
/// is neither the user nor the owner password (ARCHITECTURE.md). The child reads the
/// password from its standard input, never from its arguments, which other users can see.
enum GhostscriptPassword {
    /// True when Ghostscript opens `file` with `password` and finds pages; false when it
    /// refuses the password or crashes on it.
    static func opens(_ file: GhostscriptFile, with password: String) throws -> Bool {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = ["-q", "-dNODISPLAY", "-dSAFER", "-dBATCH", "-dNOPAUSE"] + file.readingArguments + ["-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let hex = Data(password.utf8).map { String(format: "%02x", $0) }.joined()
        let program = "/PDFPassword <\(hex)> def InputFile (r) file runpdfbegin pdfpagecount = runpdfend quit\n"
        try? input.fileHandleForWriting.write(contentsOf: Data(program.utf8))
        try? input.fileHandleForWriting.close()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return false }
        let pages = String(decoding: printed, as: UTF8.self).split(whereSeparator: \.isNewline).last.flatMap { Int($0) }
        return (pages ?? 0) > 0
    }

    /// Ghostscript's own command, `gs`, found on the PATH.
    private static func executable() throws -> URL {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("gs")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw RendererError(.engineFailure, "Ghostscript's gs command, which checks passwords, is not installed", rendererID: Ghostscript.rendererID)
    }
}
