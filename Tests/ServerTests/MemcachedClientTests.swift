import Foundation
import NIOCore
import Testing
import TestSupport

@testable import RendererServer

/// The client of the cache the servers share: against Debian's memcached, what is stored is
/// found and what is too large is not sent; against a server that answers nonsense, answers
/// nothing or is not there, every lookup is a miss, soon, and the client goes on.
@Suite struct MemcachedClientTests {
    @Test func storesAndFindsInARealMemcached() async throws {
        let port = try FreePort.loopback()
        let memcached = try RunningProcess(
            "/usr/bin/memcached", ["-l", "127.0.0.1", "-p", "\(port)", "-U", "0", "-m", "16"] + (getuid() == 0 ? ["-u", "nobody"] : []))
        defer { memcached.killAtOnce() }
        // What is stored must be found however long a busy machine takes to answer (the
        // suites run side by side): the lookup's own time limit is not what this test checks.
        let client = try #require(MemcachedClient(address: "127.0.0.1:\(port)", timeout: .seconds(60)))
        // memcached takes a moment to listen: a miss until it does.
        var found: ByteBuffer?
        for attempt in 0..<200 where found == nil {
            await client.set("key-\(attempt)", ByteBuffer(string: "value \(attempt)"), seconds: 60)
            found = await client.get("key-\(attempt)")
            if found == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(found.map { String(buffer: $0) }?.hasPrefix("value ") == true)
        // Bytes of every value (an END line among them) come back whole.
        let tricky = ByteBuffer(bytes: Array("x\r\nEND\r\nVALUE a 0 1\r\n".utf8) + (0...255).map { UInt8($0) })
        await client.set("tricky", tricky, seconds: 60)
        #expect(await client.get("tricky") == tricky)
        #expect(await client.get("never-stored") == nil)
        await client.set("large", ByteBuffer(repeating: 7, count: MemcachedClient.largestValue + 1), seconds: 60)
        #expect(await client.get("large") == nil)
        #expect(await client.get("tricky") == tricky)
    }

    @Test(arguments: ["NONSENSE\r\n", "VALUE k 0 99999999999999999999\r\n", "SERVER_ERROR out of memory\r\n", ""])
    func aServerThatAnswersWronglyIsAMiss(answer: String) async throws {
        let server = try OneAnswerServer(answer: answer)
        let client = try #require(MemcachedClient(address: "127.0.0.1:\(server.port)"))
        #expect(await client.get("key") == nil)
        // The client connects again for the next lookup, and misses again.
        #expect(await client.get("key") == nil)
        #expect(server.connections >= 1)
    }

    @Test func nothingListeningIsAMiss() async throws {
        let client = try #require(MemcachedClient(address: "127.0.0.1:\(try FreePort.loopback())"))
        #expect(await client.get("key") == nil)
        await client.set("key", ByteBuffer(string: "v"), seconds: 1)
    }

    @Test func addressesThatAreNotHostAndPortAreRefused() {
        for address in ["", "localhost", ":11211", "host:", "host:0", "host:70000", "host:port"] {
            #expect(MemcachedClient(address: address) == nil, "\(address)")
        }
    }
}

/// A TCP server on a free loopback port that reads what each connection sends and answers
/// `answer` once (nothing at all when empty), then keeps the connection open.
private final class OneAnswerServer: @unchecked Sendable {
    let port: Int
    private let socket: Int32
    private let accepted = Count()
    var connections: Int { accepted.value }

    private final class Count: @unchecked Sendable {
        // @unchecked Sendable: `count` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }

    init(answer: String) throws {
        let listening = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        listen(listening, 8)
        var bound = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) } }
        port = Int(UInt16(bigEndian: bound.sin_port))
        socket = listening
        let accepted = accepted
        Thread.detachNewThread {
            while true {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                accepted.increment()
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    guard read(connection, &buffer, buffer.count) > 0 else {
                        close(connection)
                        return
                    }
                    if !answer.isEmpty { _ = answer.withCString { write(connection, $0, strlen($0)) } }
                    // Held open until the client closes it.
                    while read(connection, &buffer, buffer.count) > 0 {}
                    close(connection)
                }
            }
        }
    }

    deinit { shutdown(socket, Int32(SHUT_RDWR)); close(socket) }
}
