#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

/// A source's bytes by position, for telling its content type: a file through a handle, an
/// application's stream through its reader, or memory.
struct SourceBytes {
    /// The number of bytes.
    let length: Int
    private let readAt: (Int, Int) throws -> Data

    init(_ source: DocumentSource) throws {
        switch source {
        case .memory(let data):
            self.init(length: data.count) { offset, count in Data(data.dropFirst(offset).prefix(count)) }
        case .stream(let stream):
            self.init(try stream.open())
        case .file(let path):
            var status = stat()
            guard stat(path, &status) == 0 else { throw LocalFile.failure(errno, path, doing: "read") }
            if status.st_mode & S_IFMT == S_IFDIR { throw RendererError(.ioFailure, "\(path) is a directory, not a PDF file") }
            self.init(try LocalFile(path: path, flags: O_RDONLY))
        }
    }

    private init(_ reader: any RandomAccessReader) {
        self.init(length: reader.length) { offset, count in
            var bytes = [UInt8](repeating: 0, count: max(0, min(count, reader.length - offset)))
            let read = try bytes.withUnsafeMutableBytes { try reader.read(at: offset, into: $0) }
            return Data(bytes.prefix(read))
        }
    }

    private init(length: Int, readAt: @escaping (Int, Int) throws -> Data) {
        self.length = length
        self.readAt = readAt
    }

    /// Up to `count` bytes at `offset`; fewer at the end.
    func read(at offset: Int, count: Int) throws -> Data {
        guard offset >= 0, offset < length, count > 0 else { return Data() }
        return try readAt(offset, count)
    }
}

/// Tells a document's content type from its signature bytes and, for ZIP packages, the
/// names its directory lists.
enum ContentSniffer {
    /// The content type `head` (the first bytes) shows, reading more through `reader` for a
    /// ZIP package; nil when it is none the API knows.
    static func contentType(head: Data, reader: SourceBytes) throws -> ContentType? {
        let bytes = [UInt8](head)
        if bytes.firstRange(of: Array("%PDF-".utf8)) != nil { return .pdf }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
        if bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return try zipPackage(head: head, reader: reader) }
        if bytes.firstRange(of: Array("<FictionBook".utf8)) != nil { return .fb2 }
        return nil
    }

    /// What `head` shows of a format people hand to a PDF reader that no engine here reads
    /// (MuPDF on Debian 12 reads no WebP), in words: "a WebP picture"; nil otherwise.
    static func unreadFormat(head: Data) -> String? {
        let bytes = [UInt8](head)
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return "a WebP picture" }
        return nil
    }

    /// An EPUB names its type in a first, stored entry `mimetype` (EPUB OCF 3, 4.3); XPS
    /// has a fixed document sequence; a comic book archive holds only images.
    private static func zipPackage(head: Data, reader: SourceBytes) throws -> ContentType? {
        if head.count > 58, String(decoding: head[30..<38], as: UTF8.self) == "mimetype",
            String(decoding: head[38..<58], as: UTF8.self) == "application/epub+zip"
        {
            return .epub
        }
        let names = try zipNames(reader)
        if names.contains(where: { $0.lowercased().hasSuffix(".fdseq") }) { return .xps }
        if names.contains("META-INF/container.xml") { return .epub }
        let files = names.filter { !$0.hasSuffix("/") && !$0.lowercased().hasSuffix(".xml") }
        let images = ["jpg", "jpeg", "png", "gif", "bmp", "tif", "tiff", "jpx", "jp2", "jxr", "webp"]
        if !files.isEmpty, files.allSatisfy({ images.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }) { return .cbz }
        return nil
    }

    /// The names in a ZIP archive's central directory (APPNOTE 4.3.12 and 4.3.16); throws
    /// `damaged` when the directory cannot be found or read.
    static func zipNames(_ reader: SourceBytes) throws -> [String] {
        func damaged(_ reason: String) -> RendererError {
            RendererError(.damaged, "a ZIP package whose directory cannot be read: \(reason)")
        }
        func uint16(_ data: Data, _ at: Int) -> Int { Int(data[data.startIndex + at]) | Int(data[data.startIndex + at + 1]) << 8 }
        func uint32(_ data: Data, _ at: Int) -> Int { uint16(data, at) | uint16(data, at + 2) << 16 }
        // The end record is in the last 22 bytes, or before a comment of up to 65535 bytes.
        let tailStart = max(0, reader.length - 65_557)
        let tail = try reader.read(at: tailStart, count: reader.length - tailStart)
        guard tail.count >= 22,
            let end = stride(from: tail.count - 22, through: 0, by: -1).first(where: { uint32(tail, $0) == 0x0605_4B50 })
        else { throw damaged("no end of central directory record") }
        let entries = uint16(tail, end + 10)
        let size = uint32(tail, end + 12)
        let offset = uint32(tail, end + 16)
        guard offset + size <= tailStart + end, size <= 64 << 20 else { throw damaged("the directory lies outside the file") }
        let directory = try reader.read(at: offset, count: size)
        var names: [String] = []
        var position = 0
        for _ in 0..<entries {
            guard position + 46 <= directory.count, uint32(directory, position) == 0x0201_4B50 else { throw damaged("entry \(names.count + 1) is broken") }
            let nameLength = uint16(directory, position + 28)
            let extraLength = uint16(directory, position + 30)
            let commentLength = uint16(directory, position + 32)
            guard position + 46 + nameLength <= directory.count else { throw damaged("entry \(names.count + 1) is cut short") }
            let start = directory.startIndex + position + 46
            names.append(String(decoding: directory[start..<start + nameLength], as: UTF8.self))
            position += 46 + nameLength + extraLength + commentLength
        }
        return names
    }
}
