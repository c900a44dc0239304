import CSignatureCrypto
import Foundation
import RendererProvider

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A time-stamping authority (RFC 3161) reached over HTTP: what stamps a signature
/// (``SigningOptions/timestampAuthority``, PAdES B-T) or the document itself
/// (`Document.timestamp(authority:digest:)`).
public struct TimestampAuthority: Sendable, Hashable {
    /// The authority's address (`http` or `https`), to which requests are POSTed.
    public var url: URL
    /// How long the authority may take to answer.
    public var timeout: Duration

    /// The authority at `url`; `invalidArgument` for an address that is not `http` or `https`.
    public init(url: URL, timeout: Duration = .seconds(30)) throws {
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            throw RendererError(.invalidArgument, "a time-stamping authority is an http or https address")
        }
        self.url = url
        self.timeout = timeout
    }

    /// A token that stamps `data`'s `digest` digest, and its time. `ioFailure` when the
    /// authority cannot be reached or answers with an error; `engineFailure` when its answer
    /// does not grant a token for this request (another digest or nonce).
    func stamp(_ data: Data, digest: String) throws -> (token: Data, time: Date) {
        let request = try Self.call("make the timestamp request") { bytes, length, message in
            data.withUnsafeBytes { sigcrypto_timestamp_request($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, digest, &bytes, &length, message, 256) }
        }
        let response = try post(request)
        var time: Int64 = 0
        let token = try Self.call("read the authority's answer") { bytes, length, message in
            request.withUnsafeBytes { query in
                response.withUnsafeBytes { reply in
                    sigcrypto_timestamp_token(
                        query.baseAddress?.assumingMemoryBound(to: UInt8.self), query.count, reply.baseAddress?.assumingMemoryBound(to: UInt8.self), reply.count,
                        &bytes, &length, &time, message, 256)
                }
            }
        }
        return (token, Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// `signature` (DER CMS) with a timestamp of its signature value in its signer's
    /// unsigned attributes.
    func stampingSignature(_ signature: Data, digest: String) throws -> Data {
        let value = try Self.call("read the signature value") { bytes, length, message in
            signature.withUnsafeBytes { sigcrypto_signature_value($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, &bytes, &length, message, 256) }
        }
        let token = try stamp(value, digest: digest).token
        return try Self.call("add the timestamp to the signature") { bytes, length, message in
            signature.withUnsafeBytes { cms in
                token.withUnsafeBytes { stamp in
                    sigcrypto_add_signature_timestamp(
                        cms.baseAddress?.assumingMemoryBound(to: UInt8.self), cms.count, stamp.baseAddress?.assumingMemoryBound(to: UInt8.self), stamp.count,
                        &bytes, &length, message, 256)
                }
            }
        }
    }

    /// POSTs an RFC 3161 request and returns the answer's body, waiting at most ``timeout``.
    private func post(_ query: Data) throws -> Data {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = query
        request.setValue("application/timestamp-query", forHTTPHeaderField: "Content-Type")
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        request.timeoutInterval = seconds
        let answer = Locked<Result<(Data, Int), any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = URLSession.shared.dataTask(with: request) { data, response, error in
            answer.withLock { $0 = error.map { .failure($0) } ?? .success((data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0)) }
            done.signal()
        }
        task.resume()
        guard done.wait(timeout: .now() + seconds + 5) == .success, let result = answer.withLock({ $0 }) else {
            task.cancel()
            throw RendererError(.ioFailure, "the time-stamping authority did not answer within \(Int(seconds)) seconds")
        }
        switch result {
        case .failure(let error):
            throw RendererError(.ioFailure, "the time-stamping authority cannot be reached: \(error.localizedDescription)")
        case .success(let (body, status)):
            guard status == 200, body.count <= 1 << 20 else {
                throw RendererError(.ioFailure, "the time-stamping authority answered HTTP \(status)")
            }
            return body
        }
    }

    /// Runs a C call that makes bytes (freed here) and returns them; its message on failure.
    private static func call(
        _ action: String, _ body: (inout UnsafeMutablePointer<UInt8>?, inout Int, UnsafeMutablePointer<CChar>) -> sigcrypto_status
    ) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { body(&bytes, &length, $0.baseAddress!) }
        defer { sigcrypto_free(bytes) }
        guard status == SIGCRYPTO_OK, let bytes else {
            let words = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw RendererError(status == SIGCRYPTO_NO_MEMORY ? .limitExceeded : .engineFailure, "cannot \(action): \(words)")
        }
        return Data(bytes: bytes, count: length)
    }
}
