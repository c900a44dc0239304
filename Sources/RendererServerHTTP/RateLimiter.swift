import Foundation
import Hummingbird

/// Attempts per client, as a token bucket per client: each client may make `burst` attempts
/// at once and `burst` more each `period`. A bucket idle for ten periods (at least a minute)
/// is forgotten, so the limiter's memory follows the clients active now.
package actor RateLimiter {
    private let burst: Double
    private let period: Duration
    private let refusal: String
    private let clock: @Sendable () -> ContinuousClock.Instant
    private var buckets: [String: (tokens: Double, last: ContinuousClock.Instant)] = [:]

    /// A limiter of `burst` attempts per `period`, whose 429 says `refusal`, counting time by
    /// `now`.
    package init(burst: Int, per period: Duration, refusal: String, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.burst = Double(max(1, burst))
        self.period = period
        self.refusal = refusal
        self.clock = now
    }

    /// `requestsPerSecond` requests a second, counting time by `now`.
    package init(requestsPerSecond: Int, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.init(burst: requestsPerSecond, per: .seconds(1), refusal: "more than \(max(1, requestsPerSecond)) requests a second; slow down", now: now)
    }

    /// Takes one attempt's token from `client`'s bucket; throws 429 when it is empty.
    package func admit(_ client: String) throws {
        let now = clock()
        let forgetting = max(period * 10, .seconds(60))
        if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.last < forgetting } }
        var bucket = buckets[client] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + burst * ((now - bucket.last) / period))
        bucket.last = now
        guard bucket.tokens >= 1 else {
            buckets[client] = bucket
            var error = APIError(.tooManyRequests, code: "rate-limited", refusal)
            let wait = (1 - bucket.tokens) / burst * (period / .seconds(1))
            error.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
            throw error
        }
        bucket.tokens -= 1
        buckets[client] = bucket
    }
}
