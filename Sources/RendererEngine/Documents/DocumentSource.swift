#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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

    /// Reads the first bytes of the source (and, for a ZIP package, its directory) and tells
    /// what it holds: a PDF (`%PDF-` within the first 1024 bytes), XPS, EPUB, FictionBook,
    /// CBZ, or a PNG, JPEG or TIFF image. Throws `fileNotFound`, `ioFailure`,
    /// `unsupportedFormat` for empty input and anything else (naming a WebP picture as one:
    /// MuPDF on Debian 12 reads none), and `damaged` for a ZIP package
    /// whose directory cannot be read.
    public func sniffContentType() throws -> ContentType {
        let reader = try SourceBytes(self)
        let head = try reader.read(at: 0, count: 1024)
        if head.isEmpty {
            throw RendererError(.unsupportedFormat, "\(displayName) is empty (0 bytes), not a PDF")
        }
        do {
            if let type = try ContentSniffer.contentType(head: head, reader: reader) { return type }
        } catch let error as RendererError where error.code == .damaged {
            throw RendererError(.damaged, "\(displayName) is \(error.message)")
        }
        if let unread = ContentSniffer.unreadFormat(head: head) {
            throw RendererError(.unsupportedFormat, "\(displayName) is \(unread), which the engines here do not read: make it a PNG first")
        }
        throw RendererError(
            .unsupportedFormat, "\(displayName) is not a PDF (it does not start with %PDF-), nor an XPS, EPUB, FB2, CBZ, PNG, JPEG or TIFF document")
    }
}

extension DocumentSource {
    /// The local file `url` names, as ``file(_:)``; throws `invalidArgument` for a URL that
    /// is not a file URL.
    public init(fileURL url: URL) throws {
        self = .file(try url.localFilePath())
    }

    /// The whole of the source, read into memory now: a file as it is on disk at this moment.
    /// `ioFailure` when a file cannot be read.
    public func data() throws -> Data {
        switch self {
        case .memory(let data):
            return data
        case .file(let path):
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe)
            } catch {
                throw RendererError(.ioFailure, "cannot read \(path): \(error.reason)")
            }
        case .stream(let stream):
            return try stream.open().readAll()
        }
    }
}
