import Foundation
import NIOCore
import NIOPosix

/// A client of a memcached server's text protocol, for what servers share: `get` and a `set`
/// that expects no answer (`noreply`). Answers are read in order on one connection, opened
/// when first needed and again after it fails. A cache is never worth a failure: every
/// error, an answer that does not come in time, or a connection that cannot be
/// made, is a miss, and the next call connects again.
final class MemcachedClient: Sendable {
    /// The largest value stored: memcached's default item size, less its item header.
    static let largestValue = 1_048_576 - 512
    /// How long an answer may take, by default, before the lookup counts as a miss.
    static let timeout = TimeAmount.milliseconds(500)

    private let host: String
    private let port: Int
    private let timeout: TimeAmount
    private let connection: ConnectionHolder

    /// A client of the server at `address`, `host:port`, whose lookups count as a miss once
    /// an answer has not come for `timeout`; nil for an address that is not one.
    init?(address: String, timeout: TimeAmount = MemcachedClient.timeout) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]), (1...65_535).contains(port),
            colon > address.startIndex
        else { return nil }
        host = String(address[..<colon])
        self.port = port
        self.timeout = timeout
        connection = ConnectionHolder(timeout: timeout)
    }

    /// The value stored under `key`, or nil (not stored, or the server failed to say).
    func get(_ key: String) async -> ByteBuffer? {
        guard let channel = await connection.channel(host: host, port: port) else { return nil }
        let promise = channel.eventLoop.makePromise(of: ByteBuffer?.self)
        // An answer that does not come in time closes the connection, which fails it.
        let deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
        var request = channel.allocator.buffer(capacity: key.utf8.count + 6)
        request.writeString("get \(key)\r\n")
        channel.writeAndFlush(MemcachedHandler.Request(bytes: request, answer: promise), promise: nil)
        do {
            let value = try await promise.futureResult.get()
            deadline.cancel()
            return value
        } catch {
            await connection.drop(channel)
            return nil
        }
    }

    /// Stores `value` under `key` for `seconds`, without waiting for the server; a value
    /// past ``largestValue`` is not sent.
    func set(_ key: String, _ value: ByteBuffer, seconds: Int) async {
        guard value.readableBytes <= Self.largestValue, let channel = await connection.channel(host: host, port: port) else { return }
        var request = channel.allocator.buffer(capacity: value.readableBytes + key.utf8.count + 48)
        request.writeString("set \(key) 0 \(seconds) \(value.readableBytes) noreply\r\n")
        request.writeImmutableBuffer(value)
        request.writeString("\r\n")
        channel.writeAndFlush(MemcachedHandler.Request(bytes: request, answer: nil), promise: nil)
    }
}

/// The client's one connection: made when first asked for, and again once dropped; a
/// connection not made within `timeout` is none.
private actor ConnectionHolder {
    private let timeout: TimeAmount
    private var channel: (any Channel)?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channel(host: String, port: Int) async -> (any Channel)? {
        if let channel, channel.isActive { return channel }
        let made = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(MemcachedHandler()) }
            }
            .connect(host: host, port: port).get()
        channel = made
        return made
    }

    func drop(_ dropped: any Channel) {
        if channel === dropped { channel = nil }
        dropped.close(promise: nil)
    }
}

/// Writes requests and reads the answers to those that wait for one, in order: `VALUE key
/// flags length` then the bytes and `END` (or `END` alone) for a `get`. Anything else
/// (`ERROR`, `SERVER_ERROR ...`, a line that cannot be read, a length past
/// ``MemcachedClient/largestValue``) fails every answer waited for and closes the connection.
private final class MemcachedHandler: ChannelDuplexHandler {
    struct Request: Sendable {
        var bytes: ByteBuffer
        var answer: EventLoopPromise<ByteBuffer?>?
    }

    typealias InboundIn = ByteBuffer
    typealias OutboundIn = Request
    typealias OutboundOut = ByteBuffer

    private var waiting: [EventLoopPromise<ByteBuffer?>] = []
    private var received: ByteBuffer?

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let request = unwrapOutboundIn(data)
        if let answer = request.answer { waiting.append(answer) }
        context.write(wrapOutboundOut(request.bytes), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        if received == nil { received = bytes } else { received!.writeBuffer(&bytes) }
        while let answer = waiting.first, let parsed = parse() {
            waiting.removeFirst()
            switch parsed {
            case .value(let value): answer.succeed(value)
            case .failure:
                answer.fail(ChannelError.inappropriateOperationForState)
                failAll(context: context)
                return
            }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        for answer in waiting { answer.fail(ChannelError.ioOnClosedChannel) }
        waiting = []
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(context: context)
    }

    private enum Parsed {
        case value(ByteBuffer?)
        case failure
    }

    /// One whole answer to a `get` taken from what was received, or nil until it has all come.
    private func parse() -> Parsed? {
        guard var buffer = received, let lineEnd = buffer.readableBytesView.firstRange(of: [13, 10]) else { return nil }
        let line = String(decoding: buffer.readableBytesView[..<lineEnd.lowerBound], as: UTF8.self)
        let afterLine = lineEnd.upperBound - buffer.readerIndex
        if line == "END" {
            buffer.moveReaderIndex(forwardBy: afterLine)
            received = buffer
            return .value(nil)
        }
        let words = line.split(separator: " ")
        // A value longer than any this client stores is no answer of its own.
        guard words.count == 4, words[0] == "VALUE", let length = Int(words[3]), (0...MemcachedClient.largestValue).contains(length) else {
            return .failure
        }
        let end = Array("\r\nEND\r\n".utf8)
        guard buffer.readableBytes >= afterLine + length + end.count else { return nil }
        buffer.moveReaderIndex(forwardBy: afterLine)
        let value = buffer.readSlice(length: length)!
        guard buffer.readBytes(length: end.count) == end else { return .failure }
        received = buffer
        return .value(value)
    }

    private func failAll(context: ChannelHandlerContext) {
        for answer in waiting { answer.fail(ChannelError.inappropriateOperationForState) }
        waiting = []
        received = nil
        context.close(promise: nil)
    }
}
