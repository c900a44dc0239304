import Foundation
import PostgresNIO
import RendererProvider

/// Saves' turns as transaction-scoped advisory locks, one per document: the lock's first key
/// is ``saveLockClass`` and its second `hashtext` of the document's id, so that an operator
/// (or a test) can take the same lock with `pg_advisory_xact_lock`. The version each save
/// leaves is kept in `renderer_document_save`, made with the layers' tables.
extension PostgresLayerStore: SaveCoordination {
    /// The first key of every save's advisory lock ("Save" in ASCII).
    package static let saveLockClass: Int32 = 0x5361_7665

    package func saving<T: Sendable>(
        document: String, timeout: Duration, _ body: @Sendable (_ recorded: String?) async throws -> (result: T, version: String)
    ) async throws -> T {
        let milliseconds = String(max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        return try await access { client in
            try await client.withTransaction(logger: self.logger) { connection in
                try await connection.query("SELECT set_config('lock_timeout', \(milliseconds), true)", logger: self.logger)
                do {
                    // The lock's wait ends in the rows (the query is answered before it runs).
                    let rows = try await connection.query(
                        "SELECT pg_advisory_xact_lock(\(Self.saveLockClass), hashtext(\(document)))", logger: self.logger)
                    for try await _ in rows {}
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "55P03" {
                    throw RendererError(.conflict, "\(document) is being changed through another server; try again")
                }
                var recorded: String?
                for try await version in try await connection.query(
                    "SELECT version FROM renderer_document_save WHERE document = \(document)", logger: self.logger
                ).decode(String.self) {
                    recorded = version
                }
                let outcome: (result: T, version: String)
                do {
                    outcome = try await body(recorded)
                } catch {
                    throw PassedThrough(error: error)
                }
                try await connection.query(
                    """
                    INSERT INTO renderer_document_save (document, version) VALUES (\(document), \(outcome.version))
                    ON CONFLICT (document) DO UPDATE SET version = excluded.version
                    """, logger: self.logger)
                return outcome.result
            }
        }
    }

    /// The saves' table, made in the layers' transaction (``createTables()``).
    static let saveTables: [PostgresQuery] = [
        "CREATE TABLE IF NOT EXISTS renderer_document_save (document TEXT PRIMARY KEY, version TEXT NOT NULL)"
    ]
}

/// An error of the caller's own code run inside a transaction, thrown on as it is rather than
/// as the database's failure.
struct PassedThrough: Error {
    let error: any Error
}
