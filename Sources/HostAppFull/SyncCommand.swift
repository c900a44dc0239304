import ArgumentParser
import HostCommands
import Dispatch
import Foundation
import RendererCollaboration
import RendererProvider
import RendererSync

/// `hostapp sync`: the sync client on the command line. Each subcommand opens the layer its
/// token names, keeps the layer in a local store (so changes queued offline survive), and
/// prints the client's events as JSON lines on stdout.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Keep a local copy of a collaboration layer in step with a server (events as JSON lines).",
        discussion: """
            The token is read from --token-file (never from the command line, where other users \
            could see it); when the server refuses it, the file is read again, so a renewed token \
            written there is taken without losing queued changes. Exit codes: 69 when the server \
            cannot be reached (changes stay queued for the next run), 75 when the server \
            rejected a change (printed as a conflict event), 77 for a refused token.
            """,
        subcommands: [Pull.self, Push.self, Watch.self, Download.self, Forget.self])

    /// The options every subcommand that talks to a server takes.
    struct Connection: ParsableArguments {
        @Option(help: "The server, such as http://127.0.0.1:8080.") var server: String
        @Option(help: "A file holding the collaboration token (JWT).") var tokenFile: String
        @Option(help: "The folder of local stores (default: $XDG_CACHE_HOME/renderer-provider/sync).") var store: String?
        @Option(help: "Seconds between sync cycles (watch).") var cycleDelay: Double = 1

        func validate() throws {
            guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? "") else {
                throw ValidationError("--server must be an http:// or https:// address")
            }
            guard cycleDelay >= 0.05, cycleDelay <= 3600 else { throw ValidationError("--cycle-delay must be between 0.05 and 3600 seconds") }
        }

        /// A client for the layer the token opens; the token file is read again on a 401.
        func client() throws -> SyncClient {
            let path = tokenFile
            let token = try Self.readToken(path)
            let configuration = SyncClient.Configuration(cycleDelay: .milliseconds(Int64(cycleDelay * 1000)))
            return try SyncClient(server: URL(string: server)!, token: token, storage: SyncCommand.storage(store), configuration: configuration) {
                let renewed = try Self.readToken(path)
                guard renewed != token else { throw SyncError(.unauthorized, "the server refused the token in \(path), and the file holds no new one") }
                return renewed
            }
        }

        static func readToken(_ path: String) throws -> String {
            guard let data = FileManager.default.contents(atPath: path) else { throw RendererError(.fileNotFound, "cannot read the token file \(path)") }
            return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pull",
            abstract: "Send queued changes, fetch what changed, and print the layer's revision and annotations.")

        @OptionGroup var connection: Connection
        @Option(help: "Also write the layer's annotations (JSON) to this file.") var output: String?

        func run() async throws {
            try await SyncCommand.running(connection) { client in
                try await client.sync()
                let annotations = try client.annotations()
                if let output {
                    try JSONOutput.data(annotations).write(to: URL(fileURLWithPath: output), options: .atomic)
                }
                return Summary(revision: try client.revision(), annotations: annotations.count, pending: try client.pendingChangeCount())
            }
        }
    }

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "push",
            abstract: "Queue changes (annotations as JSON, as `hostapp annotations list --json` prints them) and send the queue.")

        @OptionGroup var connection: Connection
        @Option(help: "A JSON file of annotations to add (an array, or one object).") var add: String?
        @Option(help: "A JSON file of annotations to modify, by id.") var modify: String?
        @Option(help: "An annotation id to delete (repeat).") var delete: [String] = []

        func run() async throws {
            try await SyncCommand.running(connection) { client in
                for annotation in try Self.annotations(add) { try client.add(annotation) }
                for annotation in try Self.annotations(modify) { try client.modify(annotation) }
                for id in delete { try client.delete(id: id) }
                let results = try await client.push()
                try await client.pull()
                let summary = Summary(revision: try client.revision(), annotations: try client.annotations().count, pending: try client.pendingChangeCount())
                if results.contains(where: { $0.status == .rejected }) {
                    JSONOutput.printLine(summary)
                    throw ExitCode(Failure.conflict)
                }
                return summary
            }
        }

        static func annotations(_ path: String?) throws -> [Annotation] {
            guard let path else { return [] }
            guard let data = FileManager.default.contents(atPath: path) else { throw RendererError(.fileNotFound, "cannot read \(path)") }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .rfc3339
            if let list = try? decoder.decode([Annotation].self, from: data) { return list }
            do {
                return [try decoder.decode(Annotation.self, from: data)]
            } catch {
                throw RendererError(.invalidArgument, "\(path) holds no annotation JSON: \(error)")
            }
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch",
            abstract: "Sync until Ctrl-C or SIGTERM, printing every event (remote changes, conflicts, offline, online) as a JSON line.")

        @OptionGroup var connection: Connection

        func run() async throws {
            let client = try SyncCommand.opened(connection)
            let printing = Task { for await event in client.events { JSONOutput.printLine(event) } }
            let syncing = Task { await client.run() }
            let signals = [SIGINT, SIGTERM].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number)
                source.setEventHandler { syncing.cancel() }
                source.resume()
                return source
            }
            await syncing.value
            signals.forEach { $0.cancel() }
            client.finishEvents()
            await printing.value
        }
    }

    struct Download: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "download", abstract: "Download the layer's document (needs the download permission), with progress on stderr.")

        @OptionGroup var connection: Connection
        @Option(help: "Where to write the PDF.") var output: String

        func run() async throws {
            try await SyncCommand.running(connection) { client in
                let path = try await client.downloadDocument { received, expected in
                    let total = expected.map { " of \($0)" } ?? ""
                    FileHandle.standardError.write(Data("\rhostapp: downloaded \(received)\(total) bytes".utf8))
                }
                FileHandle.standardError.write(Data("\n".utf8))
                let destination = URL(fileURLWithPath: output)
                _ = try? FileManager.default.removeItem(at: destination)
                try FileManager.default.copyItem(at: path, to: destination)
                return Summary(revision: try client.revision(), annotations: try client.annotations().count, pending: try client.pendingChangeCount())
            }
        }
    }

    struct Forget: ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "forget", abstract: "Remove the local store of a document and layer (unsent changes are lost).")

        @Option(help: "The document's identifier.") var document: String
        @Option(help: "The layer's name.") var layer: String = "default"
        @Option(help: "The folder of local stores (default: $XDG_CACHE_HOME/renderer-provider/sync).") var store: String?

        func execute() throws {
            try SyncClient.removeLocalStorage(for: try DocumentDescriptor(documentID: document, layer: layer), in: SyncCommand.storage(store))
        }
    }

    /// What a one-shot subcommand prints last.
    struct Summary: Encodable {
        var type = "summary"
        var revision: Int
        var annotations: Int
        var pending: Int
    }

    /// The folder of local stores.
    static func storage(_ given: String?) -> URL {
        if let given { return URL(fileURLWithPath: given) }
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"] ?? (NSHomeDirectory() + "/.cache")
        return URL(fileURLWithPath: cache).appendingPathComponent("renderer-provider/sync")
    }

    /// A client, with its errors turned into hostapp's messages and exit codes.
    static func opened(_ connection: Connection) throws -> SyncClient {
        do {
            return try connection.client()
        } catch let error as TokenError {
            Failure.printError("the token file \(connection.tokenFile) holds no usable token: \(error.message)")
            throw ExitCode(Failure.usage)
        } catch let error as RendererError {
            throw Failure.ending(with: error)
        }
    }

    /// Runs `body` with a client, printing its events as JSON lines and then what `body`
    /// returns; failures end hostapp with the exit code the command's help states.
    static func running(_ connection: Connection, _ body: (SyncClient) async throws -> Summary) async throws {
        let client = try opened(connection)
        let printing = Task { for await event in client.events { JSONOutput.printLine(event) } }
        do {
            let summary = try await body(client)
            client.finishEvents()
            await printing.value
            JSONOutput.printLine(summary)
        } catch {
            client.finishEvents()
            await printing.value
            throw exit(for: error, pending: (try? client.pendingChangeCount()) ?? 0)
        }
    }

    /// The exit that `error` ends hostapp with, after its message.
    static func exit(for error: any Error, pending: Int) -> any Error {
        switch error {
        case let error as SyncError:
            let queued = pending > 0 ? " (\(pending) changes stay queued)" : ""
            Failure.printError(error.message + queued)
            switch error.kind {
            case .offline, .rateLimited, .server: return ExitCode(69)
            case .unauthorized, .forbidden: return ExitCode(Failure.notPermitted)
            case .notFound: return ExitCode(Failure.document)
            case .tooLarge: return ExitCode(Failure.usage)
            case .storage: return ExitCode(Failure.io)
            }
        case let error as RendererError:
            return Failure.ending(with: error)
        default:
            return error
        }
    }
}
