import Foundation
import PostgresNIO

/// The uploads' ledger of servers sharing a folder of uploads, in the table `renderer_upload`
/// (made with the layers' tables): a row per upload kept and per upload being received, each
/// change made under one advisory lock so that servers reserving at once see each other's
/// counts. A row of an upload being received that has not grown for ``receivingIdleLimit``
/// is no longer counted.
extension PostgresLayerStore: UploadLedger {
    /// The advisory lock under which the ledger changes ("Upld" in ASCII).
    static let uploadLock: Int64 = 0x5570_6c64
    package var reservationStep: Int? { 1 << 20 }

    package func reserve(_ bytes: Int, for receiving: String, budget: Int) async throws -> (removed: [String], admitted: Bool) {
        try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(Self.uploadLock))", logger: self.logger)
                try await connection.query(
                    """
                    DELETE FROM renderer_upload WHERE NOT kept AND name <> \(receiving)
                    AND at < extract(epoch FROM clock_timestamp()) - \(Self.receivingIdleLimit)
                    """, logger: self.logger)
                var total = 0
                for try await sum in try await connection.query("SELECT coalesce(sum(bytes), 0)::bigint FROM renderer_upload", logger: self.logger)
                    .decode(Int64.self)
                {
                    total = Int(sum)
                }
                var removed: [String] = []
                if total + bytes > budget {
                    let oldest = try await connection.query(
                        "SELECT name, bytes FROM renderer_upload WHERE kept ORDER BY at, name", logger: self.logger)
                    for try await (name, size) in oldest.decode((String, Int64).self) where total + bytes > budget {
                        removed.append(name)
                        total -= Int(size)
                    }
                    try await connection.query("DELETE FROM renderer_upload WHERE kept AND name = ANY(\(removed))", logger: self.logger)
                }
                guard total + bytes <= budget else { return (removed, false) }
                try await connection.query(
                    """
                    INSERT INTO renderer_upload (name, bytes, kept, at) VALUES (\(receiving), \(Int64(bytes)), false, extract(epoch FROM clock_timestamp()))
                    ON CONFLICT (name) DO UPDATE SET bytes = renderer_upload.bytes + excluded.bytes, at = excluded.at
                    """, logger: self.logger)
                return (removed, true)
            }
        }
    }

    package func keep(_ receiving: String, as name: String, bytes: Int) async throws {
        try await access { client in
            try await client.query(
                """
                UPDATE renderer_upload SET name = \(name), bytes = \(Int64(bytes)), kept = true, at = extract(epoch FROM clock_timestamp())
                WHERE name = \(receiving) AND NOT kept
                """, logger: self.logger)
        }
    }

    package func discard(_ receiving: String) async throws {
        try await access { client in
            try await client.query("DELETE FROM renderer_upload WHERE name = \(receiving) AND NOT kept", logger: self.logger)
        }
    }

    /// The ledger's table, made in the layers' transaction (``createTables()``).
    static let uploadTables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS renderer_upload (
            name TEXT PRIMARY KEY, bytes BIGINT NOT NULL, kept BOOLEAN NOT NULL, at DOUBLE PRECISION NOT NULL)
        """
    ]
}
