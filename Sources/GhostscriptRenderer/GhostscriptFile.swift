import Foundation
import RendererEngine

/// The name under which Ghostscript reads a document: its path, or for bytes in memory and
/// streams a ``MemoryFile`` holding them. Nothing of the document is written to disk.
final class GhostscriptFile {
    /// The name Ghostscript opens.
    let path: String
    /// The bytes of a memory or stream source; nil for a path.
    private let memory: MemoryFile?

    /// The file for `source`: a path as given, else the source's bytes in memory (a stream
    /// is read whole, through a reader of its own).
    init(_ source: DocumentSource) throws {
        if case .file(let path) = source {
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw RendererError(.ioFailure, "cannot read \(path)", rendererID: Ghostscript.rendererID)
            }
            // Absolute, so that a name starting with '-' is never read as an option.
            self.path = URL(fileURLWithPath: path).path
            memory = nil
        } else {
            let memory = try MemoryFile()
            try memory.append(try source.data())
            self.memory = memory
            path = memory.path
        }
    }

    /// Whether the file names an encryption dictionary (`/Encrypt` anywhere in its bytes; a
    /// file that only mentions it is taken as encrypted too, which costs one check in a
    /// child process).
    var declaresEncryption: Bool {
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return false }
        return bytes.range(of: Data("/Encrypt".utf8)) != nil
    }

    /// The arguments that let a run under `-dSAFER` read the file, named `InputFile`.
    var readingArguments: [String] { ["--permit-file-read=\(path)", "-sInputFile=\(path)"] }
}
