#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FileSystem {
    /// The document at `path` as a source the engines read by position, opening a reader of
    /// their own for each engine document.
    public func documentStream(_ path: String) throws -> DocumentStream {
        let attributes = try self.attributes(of: path)
        guard !attributes.isDirectory else { throw RendererError(.ioFailure, "\(path) is a directory, not a document") }
        return DocumentStream(name: path, length: attributes.size) { try self.openForReading(path) }
    }

    /// Writes the file at `path` as a whole, or not at all: `write` fills a temporary entry
    /// beside it, which is renamed over `path` once complete and closed, and removed if
    /// anything fails. Throws `notPermitted` on a file system that is not writable.
    public func replaceAtomically(_ path: String, _ write: (any FileWriteHandle) throws -> Void) throws {
        guard isWritable else { throw RendererError(.notPermitted, "\(path) is in a file system that cannot be written") }
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(UUID().uuidString.lowercased()).partial"
        do {
            let handle = try openForWriting(temporary)
            do {
                try write(handle)
                try handle.close()
            } catch {
                try? handle.close()
                throw error
            }
            try rename(temporary, to: path)
        } catch {
            try? delete(temporary)
            throw error
        }
    }
}
