import ArgumentParser
import HostCommands
import Foundation
import Logging
import RendererCollaboration
import RendererLayers
import RendererProvider

/// `hostapp token`: collaboration tokens for development and tests. Production tokens come
/// from the application's own backend, which holds the private key.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Make keys and collaboration tokens (JWT, ES256 or RS256) for development and tests.",
        subcommands: [Keygen.self, Issue.self, Verify.self, Revoke.self])

    struct Keygen: ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "keygen", abstract: "Write a new EC P-256 (ES256) key pair in PEM.")

        @Option(help: "Where to write the private key (created readable by its owner only).") var privateKeyOut: String
        @Option(help: "Where to write the public key, for servers that verify tokens.") var publicKeyOut: String

        func execute() throws {
            let key = CollaborationTokens.makePrivateKeyPEM()
            try TokenCommand.write(key, to: privateKeyOut, permissions: 0o600)
            try TokenCommand.write(try CollaborationTokens.publicKeyPEM(ofPrivateKey: key), to: publicKeyOut, permissions: 0o644)
        }
    }

    struct Issue: AsyncReportingCommand {
        static let configuration = CommandConfiguration(commandName: "issue", abstract: "Print a token signed with a private key (ES256 or RS256).")

        @Option(help: "The private key, in PEM.") var privateKey: String
        @Option(help: "The document's identifier.") var document: String
        @Option(help: "The layer's name.") var layer: String = "default"
        @Option(help: "The user's id.") var user: String
        @Option(help: "The user's default group.") var group: String?
        @Option(name: .customLong("permission"), help: "A permission (repeat): read-document, write, download, annotations:edit:self, annotations:edit:all, annotations:delete:all.")
        var permissions: [String] = ["read-document", "write"]
        @Option(help: "Seconds until the token expires.") var expiresIn: Int = 900
        @Option(help: "The audience the token is for (aud).") var audience: String?
        @Option(help: "The token's id (jti), by which a server's revocation list can revoke it.") var id: String?

        func validate() throws {
            guard expiresIn > 0 else { throw ValidationError("--expires-in must be at least 1 second") }
        }

        func execute() async throws {
            let tokens = try await CollaborationTokens(pem: try TokenCommand.read(privateKey))
            let claims = CollaborationClaims(
                user: user, descriptor: try DocumentDescriptor(documentID: document, layer: layer), group: group,
                permissions: permissions, expires: Date().addingTimeInterval(TimeInterval(expiresIn)),
                audience: audience.map { [$0] }, id: id)
            print(try await tokens.issue(claims))
        }
    }

    struct Verify: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check a token with a public (or private) key and print its claims as JSON; exit 65 when it is refused.")

        @Option(help: "The key, in PEM.") var key: String
        @Option(help: "The document the token must open.") var document: String?
        @Option(help: "The layer the token must open (with --document).") var layer: String = "default"
        @Argument(help: "The token.") var token: String

        func execute() async throws {
            do {
                let tokens = try await CollaborationTokens(pem: try TokenCommand.read(key))
                let descriptor = try document.map { try DocumentDescriptor(documentID: $0, layer: layer) }
                let claims = try await tokens.verify(token, for: descriptor)
                try JSONOutput.print(claims)
            } catch let error as TokenError {
                Failure.printError("the token is refused: \(error)")
                throw ExitCode(Failure.document)
            }
        }
    }

    struct Revoke: AsyncReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke tokens by id (jti) for every server sharing a PostgreSQL database: each refuses them at once.")

        @Option(help: "The servers' database: postgres://user@host[:port]/database (its password may come from PGPASSWORD).")
        var database: String
        @Argument(help: "The ids (jti) of the tokens to revoke.") var ids: [String]

        func validate() throws {
            guard PostgresLayerStore.names(database) else { throw ValidationError("--database must be a postgres:// address") }
            guard !ids.isEmpty, ids.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 256 && !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
            else { throw ValidationError("give the ids to revoke: each 1 to 256 bytes, without control characters") }
        }

        func execute() async throws {
            try await PostgresLayerStore.revoke(ids, inDatabaseAt: database, logger: Logger(label: "hostapp.token") { _ in SwiftLogNoOpLogHandler() })
        }
    }

    static func read(_ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw RendererError(.fileNotFound, "cannot read the key file \(path)")
        }
        return text
    }

    static func write(_ text: String, to path: String, permissions: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: permissions]) else {
            throw RendererError(.ioFailure, "cannot write \(path)")
        }
    }
}
