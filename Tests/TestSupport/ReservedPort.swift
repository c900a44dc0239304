import Foundation
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses every connection for as long as the value lives: a socket is
/// bound to it and never listens, so no other server (another test's, started meanwhile) can
/// take it. A client pointed at it finds its server gone, as after a stop, and nothing else.
public final class ReservedPort {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RendererError(.ioFailure, "cannot make a socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else {
            close(descriptor)
            throw RendererError(.ioFailure, "cannot bind a loopback port")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `url` with its port replaced by this one.
    public func replacingPort(of url: URL) -> URL {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        components.port = port
        return components.url!
    }

    deinit {
        close(descriptor)
    }
}
