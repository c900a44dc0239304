import Foundation

/// Requests per client per second, as a token bucket per client: each client may make
/// `rate` requests at once and `rate` more each second. A bucket idle for a minute is
/// forgotten, so the limiter's memory follows the clients active now.
actor RateLimiter {
    private let rate: Double
    private var buckets: [String: (tokens: Double, last: ContinuousClock.Instant)] = [:]

    init(requestsPerSecond: Int) {
        rate = Double(max(1, requestsPerSecond))
    }

    /// Takes one request's token from `client`'s bucket; throws 429 when it is empty.
    func admit(_ client: String) throws {
        let now = ContinuousClock.now
        if buckets.count > 10_000 { buckets = buckets.filter { now - $0.value.last < .seconds(60) } }
        var bucket = buckets[client] ?? (rate, now)
        let elapsed = now - bucket.last
        bucket.tokens = min(rate, bucket.tokens + rate * (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
        bucket.last = now
        guard bucket.tokens >= 1 else {
            buckets[client] = bucket
            var error = APIError(.tooManyRequests, code: "rate-limited", "more than \(Int(rate)) requests a second; slow down")
            error.headers[.retryAfter] = "1"
            throw error
        }
        bucket.tokens -= 1
        buckets[client] = bucket
    }
}
