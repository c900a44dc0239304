import ArgumentParser
import HostCommands
import Foundation
import Logging
import OTel
import RendererCollaboration
import RendererIsolation
import RendererLayers
import RendererPrinting
import RendererConversion
import RendererProvider
import RendererServer
import RendererSignatures
import ServiceLifecycle
import Tracing

struct ServeCommand: AsyncParsableCommand, HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve PDF files to a browser: the viewer and its JSON HTTP API, through either engine.",
        discussion: """
            Serves the files given, and every PDF under the folders given, on loopback unless
            --host says otherwise. Every request must carry the server's token: the address
            printed at start holds it for the viewer (which then keeps it in a cookie), and the
            API takes it as "Authorization: Bearer TOKEN". A token is made at random unless
            --token-file names a file holding one. Annotation edits are saved into the files
            unless --read-only. With --isolate every engine runs in a child process (for
            folders of untrusted files); edits are saved as without it. SIGINT or SIGTERM stops the server once the requests in flight
            are answered. With --collab-key (or --collab-hs256-secret-file) and --database it
            also keeps collaboration layers under /api/collab, for readers with signed tokens.
            docs/server.md and docs/collaboration.md list the endpoints.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "PDF files and folders to serve.", completion: .file())
    var paths: [String]

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(help: "A file whose first line is the token requests must carry (default: a random one).", completion: .file())
    var tokenFile: String?

    @Flag(help: "Refuse annotation edits; never write to the served files.")
    var readOnly = false

    @Option(help: "Engine documents open at once per file and engine (pages of one file drawn in parallel).")
    var documentsPerFile = max(2, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "Renders, searches and comparisons running or waiting at once; past it requests get 429.")
    var queueLimit = 256

    @Option(name: .customLong("image-cache-mib"), help: "Memory for rendered page images kept for repeated requests, in MiB.")
    var imageCacheMiB = 256

    @Option(
        help: ArgumentHelp(
            "A memcached server the servers share rendered pages through, behind each one's own cache (only one on the servers' own network: what it answers is served).",
            valueName: "host:port"))
    var sharedCache: String?

    @Option(
        help: ArgumentHelp(
            "Send a trace of each request (admission, queue, engine and encoding of a page image) over OTLP/HTTP to this collector (OTEL_* variables refine it).",
            valueName: "http://host:4318/v1/traces"))
    var otlpTraces: String?

    @Option(name: .customLong("body-limit-kib"), help: "The largest request body accepted, in KiB (past it: 413).")
    var bodyLimitKiB = 4096

    @Option(name: .customLong("render-memory-mib"), help: "Memory the page images being drawn may take together, in MiB (past it: 429).")
    var renderMemoryMiB = 1024

    @Option(help: "Seconds a client may take to send a connection's first request head.")
    var requestHeadTimeout = 30

    @Option(help: "Seconds a connection may stay idle before it is closed.")
    var idleTimeout = 60

    @Option(help: "Seconds a client may take to send a request's body, from its head, at whatever pace.")
    var requestBodyTimeout = 120

    @Option(help: "Connections open at once; past it a new one is answered 503 (default: the file descriptor limit less what the open files need).")
    var connectionLimit: Int?

    @Option(help: "Connections open at once from one client address (default: half of --connection-limit).")
    var connectionLimitPerAddress: Int?

    @Option(help: "Seconds a graceful stop (SIGTERM, SIGINT) gives the requests in flight to be answered; what still runs then is cancelled.")
    var shutdownGrace = 30

    @Option(help: "Served files kept open at once (engine documents and session); the least recently used is closed past it.")
    var openFileLimit = 32

    @Option(
        help: ArgumentHelp(
            "The SQLite file each reader's bookmarks and place in each document are kept in (:memory: keeps them for the server's life); with --database postgres://..., that database keeps them instead, for every server sharing it.",
            discussion: "Default: $XDG_DATA_HOME/hostapp/server-readers.sqlite (~/.local/share/hostapp/...)."),
        completion: .file())
    var readerState: String?

    @Flag(help: "Let readers open PDFs of their own machine in the viewer (uploads, kept apart from the served files and read by engines in child processes under --memory-mib and --time-limit, with or without --isolate).")
    var uploads = false

    @Option(help: "The folder uploads are kept in (default: a new temporary folder, removed when the server stops).", completion: .directory)
    var uploadFolder: String?

    @Option(name: .customLong("upload-limit-mib"), help: "The largest upload taken, in MiB.")
    var uploadLimitMiB = 64

    @Option(name: .customLong("upload-space-mib"), help: "The space all uploads may take, in MiB; the oldest are removed to make room.")
    var uploadSpaceMiB = 1024

    @Flag(help: "Take office documents (Word, Excel, PowerPoint, OpenDocument, RTF) as uploads too, kept as the PDF LibreOffice makes of each (headless, no macro run, nothing fetched, within --time-limit; needs LibreOffice and python3-uno).")
    var convertOffice = false

    @Flag(help: "Take HTML documents as uploads too, kept as the PDF headless Chromium prints of each (the page fetches nothing; within --time-limit; needs chromium).")
    var convertHTML = false

    @Flag(help: "Let readers print to the print server's printers from the viewer (CUPS's own server unless --print-server).")
    var printers = false

    @Option(help: ArgumentHelp("The CUPS print server readers print to (host:port, host, or a socket's path); implies --printers.", valueName: "server"))
    var printServer: String?

    /// The anchors the viewer's signature panel checks signers against.
    @OptionGroup var trust: TrustOptions

    @Option(help: ArgumentHelp("The PKCS#12 identity the token's holder signs with from the viewer (default: none; signing refused).", valueName: "p12"), completion: .file())
    var signingIdentity: String?

    @Option(help: "A file whose first line is the signing identity's password.", completion: .file())
    var signingPasswordFile: String?

    @Option(help: "Keep collaboration layers, verifying readers' tokens with this key (PEM: EC P-256 for ES256 or RSA for RS256).", completion: .file())
    var collabKey: String?

    @Option(help: "Keep collaboration layers with HS256 tokens whose shared secret is this file's bytes (one machine only).", completion: .file())
    var collabHs256SecretFile: String?

    @Option(
        help: """
            The collaboration layers' database: a SQLite file (created when missing), or postgres://user@host:port/database, \
            which several servers share (the password from PGPASSWORD keeps it out of the process list).
            """, completion: .file())
    var database: String?

    @Option(help: "The longest a collaboration token may be valid, from its issue (iat) to its expiry (exp), in seconds.")
    var collabMaxTokenLifetime = 86_400

    @Option(help: "Take only collaboration tokens whose audience (aud) names this.")
    var collabAudience: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file naming each collaborator's signing identity: {\"USER\": {\"pkcs12\": \"FILE.p12\", \"passwordFile\": \"FILE\"}}; tokens that grant sign let their user sign with it.",
            valueName: "json"), completion: .file())
    var collabSigners: String?

    @Option(
        help: "A file of revoked collaboration token ids (jti), one a line; read again on SIGHUP.", completion: .file())
    var collabRevocations: String?
    @OptionGroup var globalArguments: GlobalArguments

    func validate() throws {
        if !uploads && uploadFolder != nil { throw ValidationError("--upload-folder goes with --uploads") }
        if uploads && uploadFolder == nil && database.map(PostgresLayerStore.names) == true {
            throw ValidationError("servers sharing a PostgreSQL database keep uploads in a folder they all mount: give --upload-folder")
        }
        if !uploads && convertOffice { throw ValidationError("--convert-office goes with --uploads") }
        if !uploads && convertHTML { throw ValidationError("--convert-html goes with --uploads") }
        if signingIdentity == nil && signingPasswordFile != nil { throw ValidationError("--signing-password-file goes with --signing-identity") }
        guard uploadLimitMiB >= 1, uploadSpaceMiB >= uploadLimitMiB else {
            throw ValidationError("--upload-limit-mib must be at least 1, and --upload-space-mib at least as much")
        }
        if database == nil && (collabAudience != nil || collabRevocations != nil || collabSigners != nil) {
            throw ValidationError("--collab-audience, --collab-revocations and --collab-signers go with collaboration (--database)")
        }
        guard collabMaxTokenLifetime >= 1 else { throw ValidationError("--collab-max-token-lifetime must be at least 1 second") }
        if collabKey != nil && collabHs256SecretFile != nil { throw ValidationError("--collab-key and --collab-hs256-secret-file exclude each other") }
        if (collabKey != nil || collabHs256SecretFile != nil) != (database != nil) {
            throw ValidationError("collaboration (--collab-key or --collab-hs256-secret-file) and --database go together")
        }
        guard !paths.isEmpty else { throw ValidationError("give at least one PDF file or folder to serve") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard documentsPerFile >= 1, queueLimit >= 1, imageCacheMiB >= 0, bodyLimitKiB >= 1 else {
            throw ValidationError("--documents-per-file, --queue-limit and --body-limit-kib must be at least 1, --image-cache-mib at least 0")
        }
        guard (connectionLimit ?? 1) >= 1, (connectionLimitPerAddress ?? 1) >= 1 else {
            throw ValidationError("--connection-limit and --connection-limit-per-address must be at least 1")
        }
        guard renderMemoryMiB >= 1, requestHeadTimeout >= 1, idleTimeout >= 1, requestBodyTimeout >= 1, shutdownGrace >= 1, openFileLimit >= 1 else {
            throw ValidationError("--render-memory-mib, --request-head-timeout, --idle-timeout, --request-body-timeout, --shutdown-grace and --open-file-limit must be at least 1")
        }
    }

    /// One collaborator's identity as --collab-signers names it.
    private struct Signer: Decodable {
        var pkcs12: String
        var passwordFile: String?
    }

    /// The identities the JSON file `path` names, by user; paths in it are read as given.
    private static func signers(from path: String) throws -> [String: SigningIdentity] {
        let named = try DataFiles.decode([String: Signer].self, from: path, maximumSize: 1 << 20, what: "signers")
        return try named.mapValues { signer in
            try SigningIdentity(pkcs12File: signer.pkcs12, password: try signer.passwordFile.map(DataFiles.secret(from:)) ?? "")
        }
    }

    /// The signing identity's password: --signing-password-file's first line, else none.
    private func signingPassword() throws -> String {
        try signingPasswordFile.map(DataFiles.secret(from:)) ?? ""
    }

    /// The reader state database: --reader-state, or the default in the XDG data directory;
    /// nil for `:memory:`.
    private func readerStatePath() -> String? {
        if readerState == ":memory:" { return nil }
        if let readerState { return readerState }
        return RunFiles.readerStatePath
    }

    func run() async throws {
        let global = self.global
        let server: DocumentServer
        // The uploads' folder made for this run, removed when it ends.
        var temporaryUploads: String?
        defer { if let temporaryUploads { try? FileManager.default.removeItem(atPath: temporaryUploads) } }
        do {
            if global.vault != nil { throw RendererError(.invalidArgument, "serve reads files from the disk; leave out --vault") }
            var configuration = ServerConfiguration(roots: paths, token: try token(), host: host, port: port)
            configuration.renderer = global.selection
            configuration.password = try global.password()
            configuration.settings = try global.documentSettings()
            configuration.readerStatePath = readerStatePath()
            configuration.allowsEditing = !readOnly
            configuration.documentLimits = DocumentLimits(cacheBytes: max(1, global.cacheMiB) << 20)
            configuration.maximumDPI = global.maximumDPI
            configuration.maximumPixelCount = Int(global.maximumMegapixels * 1e6)
            configuration.timeLimit = global.timeLimit
            configuration.textRecognition = try global.textRecognition()
            // Without --ocr, scans are read when a reader asks (the viewer's "Recognise
            // text"), where Tesseract and its language data are here.
            if configuration.textRecognition == nil {
                configuration.textRecognitionOnRequest = try? global.textRecognition(of: .withoutText)
            }
            configuration.documentsPerFile = documentsPerFile
            configuration.queueLimit = queueLimit
            configuration.cacheBytes = imageCacheMiB << 20
            configuration.sharedCache = sharedCache
            configuration.bodyLimit = bodyLimitKiB << 10
            configuration.renderMemoryBytes = renderMemoryMiB << 20
            configuration.requestHeadTimeout = .seconds(requestHeadTimeout)
            configuration.idleTimeout = .seconds(idleTimeout)
            configuration.requestBodyTimeout = .seconds(requestBodyTimeout)
            configuration.connectionLimit = connectionLimit
            configuration.connectionLimitPerAddress = connectionLimitPerAddress
            configuration.shutdownGracePeriod = .seconds(shutdownGrace)
            configuration.openFileLimit = openFileLimit
            if uploads {
                if uploadFolder == nil { temporaryUploads = try TemporaryFolder.make(named: "hostapp-uploads") }
                let folder = uploadFolder ?? temporaryUploads!
                // Strangers' files: their engines run in child processes under the limits,
                // whatever --isolate says for the served folders.
                let isolated = global.isolate ? nil : RendererRegistry(IsolatedRenderer.isolating(global.registry().renderers, with: global.isolationOptions()))
                configuration.uploads = UploadConfiguration(
                    folder: folder, maximumBytes: uploadLimitMiB << 20, totalBytes: uploadSpaceMiB << 20, renderers: isolated,
                    officeConversion: convertOffice ? OfficeConverter.Configuration(timeLimit: global.timeLimit ?? .seconds(600)) : nil,
                    htmlConversion: convertHTML ? HTMLConverter.Configuration(timeLimit: global.timeLimit ?? .seconds(60)) : nil)
            }
            if printers || printServer != nil { configuration.printing = PrintService(server: printServer) }
            configuration.trustAnchors = try trust.anchors()
            configuration.signingIdentity = try signingIdentity.map { try SigningIdentity(pkcs12File: $0, password: try signingPassword()) }
            if let database {
                var collaboration = CollaborationConfiguration(tokens: try await collaborationTokens(), database: database)
                collaboration.policy = TokenPolicy(
                    maximumLifetime: TimeInterval(collabMaxTokenLifetime), audience: collabAudience,
                    revocations: try collabRevocations.map { try RevocationList(path: $0) })
                collaboration.signingIdentities = try collabSigners.map(Self.signers(from:)) ?? [:]
                configuration.collaboration = collaboration
            }
            server = try DocumentServer(configuration: configuration, registry: global.registry(), logger: .hostapp("hostapp.serve", global.log))
        } catch let error as RendererError {
            throw Failure.ending(with: error)
        }
        let (shownHost, token) = (host.contains(":") ? "[\(host)]" : host, try self.token())
        try await server.run(alongside: try otlpTraces.map { [try Self.tracing(to: $0, logger: .hostapp("hostapp.traces", global.log))] } ?? []) { port in
            // The address with the token goes to stdout for the person starting the server,
            // never to the log.
            let served = paths.count == 1 ? paths[0] : "\(paths.count) paths"
            FileHandle.standardOutput.write(Data("Serving \(served) at http://\(shownHost):\(port)/?token=\(token)\n".utf8))
        }
    }

    /// Bootstraps the tracer that sends the server's spans over OTLP/HTTP to `endpoint` (only
    /// traces: the metrics are Prometheus', the logs the process's own); returns the service
    /// that exports them, to run beside the server.
    private static func tracing(to endpoint: String, logger: Logger) throws -> any Service {
        guard let url = URL(string: endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host?.isEmpty == false else {
            throw ValidationError("--otlp-traces must be an http:// or https:// URL")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "hostapp"
        configuration.diagnosticLogger = .custom(logger)
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.traces.otlpExporter.endpoint = endpoint
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(backend.factory)
        return backend.service
    }

    /// The collaboration tokens of --collab-key or --collab-hs256-secret-file.
    private func collaborationTokens() async throws -> CollaborationTokens {
        if let collabKey { return try await CollaborationTokens(pem: try TokenCommand.read(collabKey)) }
        guard let file = collabHs256SecretFile, let secret = FileManager.default.contents(atPath: file) else {
            throw RendererError(.fileNotFound, "cannot read the HS256 secret file")
        }
        return try await CollaborationTokens(sharedSecret: secret)
    }

    /// The token of --token-file, else a random one made once per process.
    private func token() throws -> String {
        guard let tokenFile else { return Self.randomToken }
        guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
            throw RendererError(.fileNotFound, "cannot read the token file \(tokenFile)")
        }
        let token = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard token.count >= 16, token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
            throw RendererError(.invalidArgument, "the token in \(tokenFile) must be at least 16 printable ASCII characters")
        }
        return token
    }

    /// The token made for this process when no --token-file gives one.
    private static let randomToken = RunFiles.randomToken()
}
