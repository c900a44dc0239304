import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A bare TCP connection to a server on loopback, for what an HTTP client library hides:
/// reading a streamed response as it arrives, and going away in the middle of one.
///
/// Its reads block, so async tests read through ``read(until:)``, which blocks a thread of
/// its own: blocking one of the two threads Swift's concurrency runs on (on two cores)
/// would stall the very server the test waits for. `@unchecked Sendable`: a test uses a
/// connection from one task at a time, and a read is the only user while it runs.
public final class RawHTTPConnection: @unchecked Sendable {
    private var descriptor: Int32
    /// Whether a read found the connection closed (or reset) by the server.
    public private(set) var closedByServer = false

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout` seconds (a deadline that
    /// ends a hang, not one that times the server: a loaded machine may take tens of seconds
    /// to answer). A `receiveBuffer` (bytes) shrinks the kernel's buffer of what came and
    /// was not read yet, for a client that stops reading and should hold up its server soon.
    public init(port: Int, timeout: Double = 60, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            Glibc.close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The server's end of the connection as the kernel keeps it (`/proc/net/tcp`, for
    /// loopback on `serverPort`): "ESTABLISHED" while the server keeps it open, another
    /// state (FIN_WAIT1, ...) once the server has closed it, even when it still has bytes
    /// this client has not read; nil when the kernel no longer knows it.
    public func serverEndState(serverPort: Int) -> String? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) == 0 } }
        guard named, let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else { return nil }
        let clientPort = Int(UInt16(bigEndian: address.sin_port))
        let (local, remote) = (String(format: "0100007F:%04X", serverPort), String(format: "0100007F:%04X", clientPort))
        let states = ["01": "ESTABLISHED", "04": "FIN_WAIT1", "05": "FIN_WAIT2", "06": "TIME_WAIT", "07": "CLOSE", "08": "CLOSE_WAIT", "09": "LAST_ACK", "0B": "CLOSING"]
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            if fields.count > 3, fields[1] == local, fields[2] == remote { return states[String(fields[3])] ?? String(fields[3]) }
        }
        return nil
    }

    /// Sends `text` as it is (part of a request, say).
    public func sendText(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Sends `data` as it is (a part of a body, say), all of it.
    public func sendData(_ data: Data) throws {
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, data.count - sent, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw POSIXError(.EPIPE) }
            sent += count
        }
    }

    /// Sends a GET request for `path` with `headers`.
    public func get(_ path: String, headers: [String: String] = [:]) throws {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let bytes = Array(request.utf8)
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// Reads, on a thread of its own, until `done` holds for what was read, the server
    /// closes, or a read times out; returns what was read.
    public func read(until done: @escaping @Sendable (Data) -> Bool) async -> Data {
        // The blocking read throws nothing.
        (try? await onOwnThread { self.readBlocking(until: done) }) ?? Data()
    }

    private func readBlocking(until done: (Data) -> Bool) -> Data {
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !done(received) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            // A signal (a child process of another test ending) interrupts a wait; it goes on.
            if count < 0, errno == EINTR { continue }
            // An end of stream, or a reset (a server that closes while this client still
            // sends): either way the server closed the connection.
            if count == 0 || (count < 0 && errno == ECONNRESET) { closedByServer = true }
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return received
    }

    /// Closes the connection, as a client that goes away does.
    public func close() {
        if descriptor >= 0 { Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}
