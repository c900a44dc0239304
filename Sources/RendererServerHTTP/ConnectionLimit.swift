import NIOCore
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The connections a server keeps open at once, in all and from one client address: a
/// connection past either limit is answered 503 and closed as soon as it is accepted, so that
/// clients that hold connections cannot use up the process's file descriptors (which the
/// served files, the engines and the database need too) and one address cannot take every
/// connection.
package final class ConnectionLimit: Sendable {
    /// The most connections open at once.
    package let total: Int
    /// The most connections open at once from one client address.
    package let perAddress: Int
    private let open = Locked((total: 0, byAddress: [String: Int]()))

    package init(total: Int, perAddress: Int) {
        self.total = max(1, total)
        self.perAddress = max(1, min(perAddress, total))
    }

    /// The connections a server may keep open when `reserved` of the process's descriptors
    /// are kept for everything else: the soft descriptor limit less `reserved`, at least 16.
    package static func descriptorBudget(reserving reserved: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 1 << 16 }
        return max(16, Int(clamping: limit.rlim_cur) - reserved)
    }

    /// A handler that counts its connection while it is open, or refuses it.
    package func handler() -> any ChannelHandler {
        Admission(limit: self)
    }

    fileprivate func admit(_ address: String) -> Bool {
        open.withLock { open in
            guard open.total < total, open.byAddress[address, default: 0] < perAddress else { return false }
            open.total += 1
            open.byAddress[address, default: 0] += 1
            return true
        }
    }

    fileprivate func release(_ address: String) {
        open.withLock { open in
            open.total -= 1
            let left = open.byAddress[address, default: 1] - 1
            open.byAddress[address] = left > 0 ? left : nil
        }
    }

    /// Counts its connection from the moment it is active to the moment it closes; a
    /// connection past the limits gets a 503 and is closed.
    private final class Admission: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        let limit: ConnectionLimit
        /// The address counted, once admitted.
        var admitted: String?
        var refused = false

        init(limit: ConnectionLimit) {
            self.limit = limit
        }

        func handlerAdded(context: ChannelHandlerContext) {
            guard context.channel.isActive else { return }
            admit(context)
            if refused { refuse(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            admit(context)
            context.fireChannelActive()
            if refused { refuse(context) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            if let admitted { limit.release(admitted) }
            admitted = nil
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            // A refused connection's request is not read.
            if !refused { context.fireChannelRead(data) }
        }

        private func admit(_ context: ChannelHandlerContext) {
            guard admitted == nil, !refused else { return }
            let address = context.channel.remoteAddress?.ipAddress ?? ""
            if limit.admit(address) {
                admitted = address
            } else {
                refused = true
            }
        }

        /// Answers 503 as the connection's last answer.
        private func refuse(_ context: ChannelHandlerContext) {
            APIError(.serviceUnavailable, code: "too-many-connections", "the server has as many connections open as it keeps; try again later")
                .lastAnswer(from: context)
        }
    }
}
