import CDocumentStream
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Hands the API's streams and write handles to the engines' C layers as the C structs
/// they take, keeping the Swift objects alive for as long as the C side holds them.
package enum StreamBridge {
    /// A new reader of `stream` as a `document_stream`, owned by whoever receives it: it
    /// must call `release` once. A read that throws records the error on `stream` (see
    /// ``DocumentStream``) and reads as a failure in C.
    package static func cStream(_ stream: DocumentStream) throws -> document_stream {
        let reader = Reader(stream: stream, reader: try stream.open())
        return document_stream(
            user: Unmanaged.passRetained(reader).toOpaque(),
            length: Int64(reader.reader.length),
            read: { user, offset, buffer, count in
                let reader = Unmanaged<Reader>.fromOpaque(user!).takeUnretainedValue()
                return reader.read(at: Int(offset), into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count)))
            },
            release: { user in Unmanaged<Reader>.fromOpaque(user!).release() })
    }

    /// Calls `body` with a `document_sink` that writes into `handle`, valid during the call;
    /// then throws the handle's error if a write failed.
    package static func withSink<T>(writingTo handle: any FileWriteHandle, _ body: (document_sink) throws -> T) throws -> T {
        let writer = Writer(handle: handle)
        let result = try withExtendedLifetime(writer) {
            try body(document_sink(user: Unmanaged.passUnretained(writer).toOpaque()) { user, data, count in
                let writer = Unmanaged<Writer>.fromOpaque(user!).takeUnretainedValue()
                return writer.write(UnsafeRawBufferPointer(start: data, count: Int(count)))
            })
        }
        if let failure = writer.failure { throw failure }
        return result
    }

    /// One reader of a stream.
    private final class Reader {
        let stream: DocumentStream
        let reader: any RandomAccessReader

        init(stream: DocumentStream, reader: any RandomAccessReader) {
            self.stream = stream
            self.reader = reader
        }

        func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int64 {
            guard offset < reader.length else { return 0 }
            do {
                return Int64(try reader.read(at: offset, into: buffer))
            } catch {
                stream.recordFailure(error)
                return -1
            }
        }
    }

    private final class Writer {
        let handle: any FileWriteHandle
        var failure: (any Error)?

        init(handle: any FileWriteHandle) {
            self.handle = handle
        }

        func write(_ bytes: UnsafeRawBufferPointer) -> Int32 {
            guard failure == nil else { return -1 }
            do {
                try handle.write(bytes)
                return 0
            } catch {
                failure = error
                return -1
            }
        }
    }
}
