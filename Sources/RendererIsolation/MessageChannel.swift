#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// One end of the socket between the calling process and its engine process: messages are
/// a 4-byte little-endian length and that many bytes of JSON; raw bytes (pixels, a saved
/// file) follow a message that gives their length or follows from the request.
///
/// A channel does not own its descriptor.
struct MessageChannel {
    let descriptor: Int32

    /// Why a read ended without a whole message.
    enum Interruption: Error {
        /// The other end closed the socket (its process ended).
        case closed
        /// The deadline passed first.
        case timedOut
    }

    /// The largest message accepted: 256 MiB of JSON is far beyond any honest reply.
    static let largestMessage = 256 << 20

    /// Sends `message` as one frame.
    func send<T: Encodable>(_ message: T) throws {
        let body = try JSONEncoder().encode(message)
        var frame = withUnsafeBytes(of: UInt32(body.count).littleEndian) { Data($0) }
        frame.append(body)
        try frame.withUnsafeBytes { try write($0) }
    }

    /// Sends raw bytes whose length a message before them gave.
    func send(raw bytes: UnsafeRawBufferPointer) throws {
        try write(bytes)
    }

    func receive<T: Decodable>(_ type: T.Type, before deadline: ContinuousClock.Instant?) throws -> T {
        var header = [UInt8](repeating: 0, count: 4)
        try header.withUnsafeMutableBytes { try read(into: $0, before: deadline) }
        let length = Int(header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }.littleEndian)
        guard length <= Self.largestMessage else { throw Interruption.closed }
        var body = Data(count: length)
        try body.withUnsafeMutableBytes { try read(into: $0, before: deadline) }
        return try JSONDecoder().decode(T.self, from: body)
    }

    /// Fills `buffer` from the socket.
    func read(into buffer: UnsafeMutableRawBufferPointer, before deadline: ContinuousClock.Instant?) throws {
        var done = 0
        while done < buffer.count {
            try wait(before: deadline)
            let count = Glibc.recv(descriptor, buffer.baseAddress! + done, buffer.count - done, 0)
            if count == 0 { throw Interruption.closed }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw Interruption.closed
            }
            done += count
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < bytes.count {
            // MSG_NOSIGNAL: a peer that has gone away is an error, not a SIGPIPE.
            let count = Glibc.send(descriptor, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
            if count < 0 {
                if errno == EINTR { continue }
                throw Interruption.closed
            }
            done += count
        }
    }

    /// Waits until the socket can be read, or throws `timedOut` at the deadline.
    private func wait(before deadline: ContinuousClock.Instant?) throws {
        while true {
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw Interruption.timedOut }
                let (seconds, attoseconds) = left.components
                timeout = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, timeout)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR { throw Interruption.closed }
        }
    }
}
