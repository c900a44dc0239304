import Foundation

/// A request to copy a session's saved internal file back over its original.
public struct CopyBackRequest: Hashable, Sendable, Codable {
    /// The saved file.
    public var internalPath: String
    /// Where it goes.
    public var originalPath: String

    public init(internalPath: String, originalPath: String) {
        self.internalPath = internalPath
        self.originalPath = originalPath
    }

    /// Copies the internal file over the original atomically: the original is at every
    /// moment its old or its new content. Throws `ioFailure` naming both files.
    public func copy() throws {
        do {
            try AtomicFile.replace(originalPath) { temporary in
                guard let source = FileHandle(forReadingAtPath: internalPath), let target = FileHandle(forWritingAtPath: temporary) else {
                    throw RendererError(.ioFailure, "a file cannot be opened")
                }
                defer { try? source.close(); try? target.close() }
                while let block = try source.read(upToCount: 1 << 20), !block.isEmpty { try target.write(contentsOf: block) }
            }
        } catch let error as RendererError {
            throw RendererError(.ioFailure, "\(internalPath) could not be copied back to \(originalPath): \(error.message)")
        } catch {
            throw RendererError(.ioFailure, "\(internalPath) could not be copied back to \(originalPath): \(error.localizedDescription)")
        }
    }
}

extension CopyBackRequest {
    /// Copies as ``copy()`` does, and answers as a host answers the request.
    public func copyAndAnswer() -> CopyBackAnswer {
        do {
            try copy()
            return .done
        } catch {
            return .failed("\(error)")
        }
    }
}

/// The host's answer to a ``CopyBackRequest``.
public enum CopyBackAnswer: Hashable, Sendable {
    /// The host copied the file back.
    case done
    /// The host could not; the reason is reported in a `copyBackFailed` event.
    case failed(String)
}

/// What a file was when a session opened it: its size, modification time and a digest of
/// its bytes, to tell later whether someone else changed it.
struct FileStamp: Hashable, Sendable {
    var size: Int
    var modificationDate: Date?
    var digest: UInt64

    /// The stamp of the file at `path`; `ioFailure` when it cannot be read.
    init(of path: String) throws {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw RendererError(.ioFailure, "\(path) cannot be read: \(error.localizedDescription)")
        }
        size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        modificationDate = attributes[.modificationDate] as? Date
        digest = try Self.digest(of: path)
    }

    /// FNV-1a over the file's bytes, read in blocks: a change detector, not a security hash.
    private static func digest(of path: String) throws -> UInt64 {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw RendererError(.ioFailure, "\(path) cannot be read") }
        defer { try? handle.close() }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while true {
            let block: Data
            do {
                block = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw RendererError(.ioFailure, "\(path) cannot be read: \(error.localizedDescription)")
            }
            if block.isEmpty { return hash }
            for byte in block {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
    }
}
