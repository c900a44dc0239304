import Foundation
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// One HTML document served over HTTP on a free loopback port, at an unguessable address,
/// for as long as the value is kept: what Chromium opens, so that the page is an `http:`
/// page, which may load no `file:` address (a page opened from a file could show the
/// machine's other files), and every other address answers 404. Connections are answered
/// one at a time on a thread of its own.
final class LoopbackPage: @unchecked Sendable {
    /// The page's address.
    let url: String
    /// The port it is served on.
    let port: Int
    private let listener: Int32
    private let path: String
    private let html: Data
    private let done = DispatchSemaphore(value: 0)

    /// Serves `html`; throws `ioFailure` when no loopback socket can be opened.
    init(html: Data) throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw RendererError(.ioFailure, "no socket can be opened for the page") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        guard bound == 0, listen(socket, 16) == 0 else {
            close(socket)
            throw RendererError(.ioFailure, "no loopback port can be opened for the page")
        }
        listener = socket
        port = Int(UInt16(bigEndian: address.sin_port))
        path = "/" + UUID().uuidString.lowercased() + ".html"
        url = "http://127.0.0.1:\(port)\(path)"
        self.html = html
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Stops serving: the listening socket is shut, and the serving thread ends.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            // Children are spawned with nothing of this process open beyond their three (ChildProcess).
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            answer(connection)
            close(connection)
        }
    }

    /// Reads the request's head (at most 16 KB, within five seconds) and answers the page or 404.
    private func answer(_ connection: Int32) {
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 16_384, head.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(connection, &buffer, buffer.count, 0)
            if count <= 0 { return }
            head.append(contentsOf: buffer[..<count])
        }
        let line = String(decoding: head.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self).split(separator: " ")
        let found = line.count >= 2 && line[0] == "GET" && line[1] == path
        let body = found ? html : Data("not found".utf8)
        let status = found ? "200 OK" : "404 Not Found"
        let type = found ? "text/html" : "text/plain"
        let answer = Data("HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body
        var sent = 0
        answer.withUnsafeBytes { bytes in
            while sent < bytes.count {
                let count = send(connection, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { return }
                sent += count
            }
        }
    }
}
