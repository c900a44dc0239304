import Foundation
import PostgresNIO

/// The token buckets of rate limits that servers sharing the database enforce together, in
/// the table `renderer_attempt` (made with the layers' tables): one row per limiter and
/// client, refilled by the database's own clock so that every server counts alike, and
/// changed by one statement so that attempts through several servers at once each take their
/// own token. Buckets idle for ten periods (at least a minute) are deleted as new ones are
/// made.
extension PostgresLayerStore {
    /// Takes one attempt's token from `client`'s bucket at `limiter` (`burst` tokens, refilled
    /// by `burst` each `period`); nil when admitted, else the seconds until a token is back.
    package func takeAttempt(limiter: String, client: String, burst: Int, period: Duration) async throws -> Double? {
        let seconds = max(0.001, Double(period.components.seconds) + Double(period.components.attoseconds) / 1e18)
        let full = Double(max(1, burst))
        let idle = max(seconds * 10, 60)
        // The bucket refilled since its last attempt (SET's expressions read the row as it was).
        // Numbers this code made, so written into the statement.
        let refilled = "least(\(full), renderer_attempt.tokens + \(full) * (excluded.last - renderer_attempt.last) / \(seconds))"
        return try await access { database in
            let rows = try await database.query(
                """
                INSERT INTO renderer_attempt (limiter, client, tokens, last, admitted)
                VALUES (\(limiter), \(client), \(full) - 1, extract(epoch FROM clock_timestamp())::float8, true)
                ON CONFLICT (limiter, client) DO UPDATE SET
                    tokens = CASE WHEN \(unescaped: refilled) >= 1 THEN \(unescaped: refilled) - 1 ELSE \(unescaped: refilled) END,
                    last = excluded.last, admitted = \(unescaped: refilled) >= 1
                RETURNING tokens, admitted, xmax = 0
                """, logger: self.logger)
            var outcome: (tokens: Double, admitted: Bool, made: Bool) = (full - 1, true, true)
            for try await row in rows.decode((Double, Bool, Bool).self) { outcome = row }
            if outcome.made {
                try await database.query(
                    "DELETE FROM renderer_attempt WHERE last < extract(epoch FROM clock_timestamp()) - \(idle)", logger: self.logger)
            }
            return outcome.admitted ? nil : (1 - outcome.tokens) / full * seconds
        }
    }

    /// The buckets' table, made in the layers' transaction (``createTables()``).
    static let attemptTables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS renderer_attempt (
            limiter TEXT NOT NULL, client TEXT NOT NULL, tokens DOUBLE PRECISION NOT NULL, last DOUBLE PRECISION NOT NULL,
            admitted BOOLEAN NOT NULL, PRIMARY KEY (limiter, client))
        """,
        "CREATE INDEX IF NOT EXISTS renderer_attempt_by_last ON renderer_attempt (last)",
    ]
}
