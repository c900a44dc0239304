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
    /// does not grant a token for this request (another digest or nonce), or comes from a
    /// certificate that may not stamp times (RFC 3161 asks for the extended key usage
    /// timeStamping alone, marked critical).
    func stamp(_ data: Data, digest: String) throws -> (token: Data, time: Date) {
        let request = try CMSBytes.made("make the timestamp request") { bytes, length, message, size in
            data.withUnsafeBytes { sigcrypto_timestamp_request($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count, digest, &bytes, &length, message, size) }
        }
        let response = try post(request)
        var time: Int64 = 0
        let token = try CMSBytes.made("read the authority's answer") { bytes, length, message, size in
            request.withUnsafeBytes { query in
                response.withUnsafeBytes { reply in
                    sigcrypto_timestamp_token(
                        query.baseAddress?.assumingMemoryBound(to: UInt8.self), query.count, reply.baseAddress?.assumingMemoryBound(to: UInt8.self), reply.count,
                        &bytes, &length, &time, message, size)
                }
            }
        }
        return (token, Date(timeIntervalSince1970: TimeInterval(time)))
    }

    /// `signature` (DER CMS) with a timestamp of its signature value in its signer's
    /// unsigned attributes.
    func stampingSignature(_ signature: Data, digest: String) throws -> Data {
        let token = try stamp(try CMSBytes.signatureValue(of: signature), digest: digest).token
        return try CMSBytes.made("add the timestamp to the signature") { bytes, length, message, size in
            signature.withUnsafeBytes { cms in
                token.withUnsafeBytes { stamp in
                    sigcrypto_add_signature_timestamp(
                        cms.baseAddress?.assumingMemoryBound(to: UInt8.self), cms.count, stamp.baseAddress?.assumingMemoryBound(to: UInt8.self), stamp.count,
                        &bytes, &length, message, size)
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
}
