import Foundation

/// Where a document's bytes come from.
public enum DocumentSource: Sendable {
    /// A file on disk, by path (absolute or relative to the working directory).
    case file(String)
    /// Bytes in memory; the document keeps its own copy or reference.
    case memory(Data)
    /// Bytes read by position as the engine needs them, from an application's file system.
    case stream(DocumentStream)

    /// A short name for messages: the path, or "data in memory".
    public var displayName: String {
        switch self {
        case .file(let path): path
        case .memory(let data): "\(data.count) bytes in memory"
        case .stream(let stream): stream.name
        }
    }

    /// Reads the first bytes of the source and tells what it holds. Throws
    /// `fileNotFound`, `ioFailure`, or `unsupportedFormat` for empty input and input that is
    /// not a PDF (a PDF starts with `%PDF-` within its first 1024 bytes).
    public func sniffContentType() throws -> ContentType {
        let head: Data
        switch self {
        case .memory(let data):
            head = data.prefix(1024)
        case .file(let path):
            head = try Self.readHead(of: path, count: 1024)
        case .stream(let stream):
            var bytes = [UInt8](repeating: 0, count: min(1024, stream.length))
            let count = try bytes.withUnsafeMutableBytes { try stream.open().read(at: 0, into: $0) }
            head = Data(bytes.prefix(count))
        }
        if head.isEmpty {
            throw RendererError(.unsupportedFormat, "\(displayName) is empty (0 bytes), not a PDF")
        }
        if head.range(of: Data("%PDF-".utf8)) != nil { return .pdf }
        throw RendererError(.unsupportedFormat, "\(displayName) is not a PDF: it does not start with %PDF-")
    }

    private static func readHead(of path: String, count: Int) throws -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw RendererError(.fileNotFound, "\(path): no such file")
        }
        if isDirectory.boolValue {
            throw RendererError(.ioFailure, "\(path) is a directory, not a PDF file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RendererError(.ioFailure, "\(path) cannot be read (permission denied?)")
        }
        defer { try? handle.close() }
        do {
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            throw RendererError(.ioFailure, "\(path) cannot be read: \(error.localizedDescription)")
        }
    }
}
