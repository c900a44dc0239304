#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A document's bytes that the engines read by position as they need them, from an
/// application's file system (`FileSystem.documentStream(_:)`) or any reader. Each engine
/// document opens a reader of its own, so that parallel workers never share one.
///
/// When a reader fails while an engine reads (a tampered chunk of an encrypted file, a lost
/// connection), the engine sees only that the bytes are missing; the reader's own error is
/// kept, and that operation and every later one on a document read from the stream throw
/// it instead of whatever the engine made of the missing bytes, so that nothing drawn or
/// read from a failing stream is ever returned.
public struct DocumentStream: Sendable {
    /// A name for messages.
    public let name: String
    /// The number of bytes.
    public let length: Int
    private let opener: @Sendable () throws -> any RandomAccessReader
    /// The first error a reader of this stream threw; it stays.
    private let failures = Locked<RendererError?>(nil)

    /// A stream of `length` bytes whose readers `open` makes.
    public init(name: String, length: Int, open: @escaping @Sendable () throws -> any RandomAccessReader) {
        self.name = name
        self.length = length
        self.opener = open
    }

    /// A new reader.
    public func open() throws -> any RandomAccessReader {
        try opener()
    }

    /// Keeps `error` as the reason reading failed, unless one is kept already.
    package func recordFailure(_ error: any Error) {
        let typed = (error as? RendererError) ?? RendererError(.ioFailure, "\(name) could not be read: \(error)")
        failures.withLock { if $0 == nil { $0 = typed } }
    }

    /// Why a reader of this stream failed, if one did.
    package var failure: RendererError? {
        failures.withLock { $0 }
    }
}
