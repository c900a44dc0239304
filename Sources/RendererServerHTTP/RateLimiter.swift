import Foundation
import Hummingbird

/// Takes one attempt's token from `client`'s bucket at the limiter named `limiter`, a bucket
/// of `burst` tokens refilled by `burst` each `period` that every server sharing it agrees on;
/// returns nil when the attempt is admitted, or the seconds until a token is back when the
/// bucket is empty (then no token is taken).
package typealias SharedAttemptBucket = @Sendable (_ limiter: String, _ client: String, _ burst: Int, _ period: Duration) async throws -> Double?

/// Attempts per client, as a token bucket per client: each client may make `burst` attempts
/// at once and `burst` more each `period`. A bucket idle for ten periods (at least a minute)
/// is forgotten, so the limiter's memory follows the clients active now.
///
/// Servers behind one load balancer keep the buckets together instead
/// (``SharedAttemptBucket``, in their database), so that a client has as many attempts
/// through all of them as through one; while the shared buckets do not answer, each server
/// counts alone.
package actor RateLimiter {
    private let burst: Double
    private let period: Duration
    private let refusal: String
    private let clock: @Sendable () -> ContinuousClock.Instant
    private let shared: (name: String, bucket: SharedAttemptBucket)?
    private var buckets: [String: (tokens: Double, last: ContinuousClock.Instant)] = [:]

    /// A limiter of `burst` attempts per `period`, whose 429 says `refusal`, counting time by
    /// `now`, or in the buckets `shared` under its name.
    package init(
        burst: Int, per period: Duration, refusal: String, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        shared: (name: String, bucket: SharedAttemptBucket)? = nil
    ) {
        self.burst = Double(max(1, burst))
        self.period = period
        self.refusal = refusal
        self.clock = now
        self.shared = shared
    }

    /// `requestsPerSecond` requests a second, counting time by `now`, or in the buckets `shared`.
    package init(
        requestsPerSecond: Int, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now },
        shared: (name: String, bucket: SharedAttemptBucket)? = nil
    ) {
        self.init(
            burst: requestsPerSecond, per: .seconds(1), refusal: "more than \(max(1, requestsPerSecond)) requests a second; slow down", now: now,
            shared: shared)
    }

    /// Counts one attempt of `client`; throws 429, with the seconds to wait in `Retry-After`,
    /// when it is one too many.
    package func admit(_ client: String) async throws {
        if let shared {
            let wait: Double?
            do {
                wait = try await shared.bucket(shared.name, client, Int(burst), period)
            } catch {
                return try admitCountingAlone(client)
            }
            if let wait { throw refused(waiting: wait) }
            return
        }
        try admitCountingAlone(client)
    }

    /// The 429 of an attempt too many, to be tried again in `seconds`.
    private func refused(waiting seconds: Double) -> APIError {
        var error = APIError(.tooManyRequests, code: "rate-limited", refusal)
        error.headers[.retryAfter] = String(max(1, Int(seconds.rounded(.up))))
        return error
    }

    /// Takes one attempt's token from `client`'s bucket; throws 429 when it is empty.
    private func admitCountingAlone(_ client: String) throws {
        let now = clock()
        let forgetting = max(period * 10, .seconds(60))
        if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.last < forgetting } }
        var bucket = buckets[client] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + burst * ((now - bucket.last) / period))
        bucket.last = now
        guard bucket.tokens >= 1 else {
            buckets[client] = bucket
            throw refused(waiting: (1 - bucket.tokens) / burst * (period / .seconds(1)))
        }
        bucket.tokens -= 1
        buckets[client] = bucket
    }
}
