import Foundation
import Logging
import PostgresNIO
import RendererCollaboration
import RendererProvider

/// Collaboration tokens revoked for every server sharing the database: their ids in the table
/// `renderer_token_revocation`, each announced on ``revocationChannel`` as it is revoked, so
/// that a server listening refuses it at once and one started later reads it with the rest.
extension PostgresLayerStore {
    /// The channel a revoked token's id is announced on.
    static let revocationChannel = "renderer_token_revocations"

    /// The revocations' table, made in the layers' transaction (``createTables()``).
    static let revocationTables: [PostgresQuery] = [
        "CREATE TABLE IF NOT EXISTS renderer_token_revocation (id TEXT PRIMARY KEY, revoked DOUBLE PRECISION NOT NULL)"
    ]

    /// Reads every id revoked in the database into ``revocations``, in place of those it had
    /// (on a connection of the pool: the listening one shows only what it listens to).
    func readRevocations() async throws {
        guard let revocations else { return }
        var ids: Set<String> = []
        for try await id in try await client.query("SELECT id FROM renderer_token_revocation", logger: logger).decode(String.self) {
            ids.insert(id)
        }
        revocations.replaceShared(ids)
    }

    /// Revokes the tokens `ids` for every server sharing the database at `url` (an address as
    /// ``init(url:logger:revocations:onRemoteChange:onListeningAgain:)`` takes); throws
    /// `invalidArgument` for an address it cannot read, `ioFailure` when the database fails.
    package static func revoke(_ ids: [String], inDatabaseAt url: String, logger: Logger) async throws {
        let address = try DatabaseAddress(url)
        do {
            // One connection, which fails at once when the database does not answer (a pool
            // would try again for a minute).
            let connection = try await PostgresConnection.connect(configuration: try address.connection(), id: 1, logger: logger)
            do {
                try await revoke(ids, on: connection, logger: logger)
            } catch {
                try? await connection.close()
                throw error
            }
            try? await connection.close()
        } catch {
            throw RendererError(.ioFailure, "the database at \(address.shown) failed: \(String(reflecting: error).prefix(300))")
        }
    }

    /// Revokes `ids` in one transaction on `connection`, making the table first if need be.
    private static func revoke(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(tablesLock))", logger: logger)
            for table in revocationTables { try await connection.query(table, logger: logger) }
            for id in ids {
                try await connection.query(
                    """
                    INSERT INTO renderer_token_revocation (id, revoked) VALUES (\(id), extract(epoch FROM clock_timestamp()))
                    ON CONFLICT (id) DO NOTHING
                    """, logger: logger)
                try await connection.query("SELECT pg_notify(\(revocationChannel), \(id))", logger: logger)
            }
        }
    }
}
