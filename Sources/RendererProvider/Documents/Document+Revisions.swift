#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The file behind a document and its earlier revisions, for what works on the bytes a
/// signer signed.
extension Document {
    /// The bytes the document was read from (the saved file after a save), read again now:
    /// a file as it is on disk at this moment.
    public func sourceData() throws -> Data {
        try engine.withLock { $0.source }.data()
    }

    /// The document as an earlier revision left it: the first `length` bytes of `data` (the
    /// file's bytes, as ``sourceData()`` reads them), opened with this document's renderer
    /// and password. `invalidArgument` for a length outside the bytes; the engine's error
    /// when they do not open.
    public func revision(endingAt length: Int, of data: Data) throws -> Document {
        guard length > 0, length <= data.count else {
            throw RendererError(.invalidArgument, "a revision ends within the file's \(data.count) bytes, not at \(length)", rendererID: renderer.id)
        }
        return try Document(renderer: renderer, source: .memory(Data(data.prefix(length))), password: password, limits: limits)
    }
}
