import ArgumentParser
import Foundation
import Logging
import MuPDFRenderer
import PopplerRenderer
import RendererIsolation
import RendererProvider
import RendererProviderVault

/// Options every subcommand takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Renderer: mupdf, poppler or auto (default: $HOSTAPP_BACKEND, else auto).", valueName: "backend"))
    var backend: String?

    @Option(name: .customLong("password"), help: ArgumentHelp(
        "Password (user or owner) for encrypted documents; other users may see it in the process list, so prefer --password-file or $HOSTAPP_PASSWORD.",
        valueName: "password"))
    var passwordArgument: String?

    @Option(help: ArgumentHelp("Read the password from the first line of this file (- for standard input).", valueName: "file"))
    var passwordFile: String?

    @Option(help: ArgumentHelp("Lowest level of engine messages shown on stderr: trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: Logger.Level = .error

    @Option(name: .customLong("cache-mib"), help: ArgumentHelp("Most memory the engine keeps in caches for a document, in MiB.", valueName: "MiB"))
    var cacheMiB: Int = DocumentLimits.defaultCacheBytes >> 20

    @Option(name: .customLong("max-dpi"), help: ArgumentHelp("Highest resolution a page may be drawn at.", valueName: "dpi"))
    var maximumDPI: Double = RenderOptions.defaultMaximumDPI

    @Option(name: .customLong("max-megapixels"), help: ArgumentHelp("Largest image a page may be drawn into, in millions of pixels.", valueName: "n"))
    var maximumMegapixels: Double = Double(RenderOptions.defaultMaximumPixelCount) / 1e6

    @Option(name: .customLong("time-limit"), help: ArgumentHelp(
        "Longest time one page may take, in seconds (0: no limit). With --isolate it bounds every step (opening, each page), and the engine is stopped; without, it bounds drawing: MuPDF stops within the page, Poppler before it.",
        valueName: "seconds"))
    var timeLimitSeconds: Double = 120

    @Flag(help: "Run the engine in a child process (info, render and text), so that an engine crash, a hang past --time-limit or exhausted memory fails the page or document, not hostapp.")
    var isolate = false

    @Option(name: .customLong("memory-mib"), help: ArgumentHelp("With --isolate, the most address space the engine process may use, in MiB.", valueName: "MiB"))
    var memoryMiB: Int = IsolationOptions.defaultMemoryBytes >> 20

    @Option(help: ArgumentHelp(
        "Document settings (JSON) that editing commands, render and open enforce with the PDF's own permissions.", valueName: "file"))
    var settings: String?

    @Option(help: ArgumentHelp("Read and write documents in this encrypted vault (a directory); FILE then names an entry in it.", valueName: "directory"))
    var vault: String?

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The vault's key: 64 hexadecimal digits or 32 bytes.", valueName: "file"))
    var keyFile: String?

    func validate() throws {
        if (vault == nil) != (keyFile == nil) { throw ValidationError("--vault and --key-file go together") }
        if vault != nil && isolate { throw ValidationError("--isolate cannot read from a vault: the engine process would need the key") }
        if settings != nil && isolate { throw ValidationError("--settings and --isolate exclude each other: the settings are checked by a session in this process") }
        guard memoryMiB >= 64 else { throw ValidationError("--memory-mib must be at least 64") }
        if passwordArgument != nil && passwordFile != nil { throw ValidationError("--password and --password-file exclude each other") }
        guard cacheMiB > 0, cacheMiB <= 1 << 20 else { throw ValidationError("--cache-mib must be between 1 and 1048576") }
        guard maximumDPI.isFinite, maximumDPI > 0 else { throw ValidationError("--max-dpi must be a positive number") }
        guard maximumMegapixels.isFinite, maximumMegapixels > 0, maximumMegapixels <= 1e9 else {
            throw ValidationError("--max-megapixels must be a positive number up to 1000000000")
        }
        guard timeLimitSeconds.isFinite, timeLimitSeconds >= 0 else { throw ValidationError("--time-limit must be 0 or a positive number of seconds") }
    }

    /// The time one page may take, or nil for no limit.
    var timeLimit: Duration? {
        timeLimitSeconds > 0 ? .nanoseconds(Int64(min(timeLimitSeconds, 1e9) * 1e9)) : nil
    }

    /// The cancellation for work on one page: `batch`'s, with the page's time limit.
    func pageCancellation(within batch: Cancellation) -> Cancellation {
        timeLimit.map { Cancellation(timeLimit: $0, within: batch) } ?? batch
    }

    /// Opens `path` for info, render or text: with --isolate in an engine process (this
    /// program's `worker` command), otherwise as ``open(_:needing:)`` does.
    func openForPages(_ path: String, needing capabilities: Set<Capability>) throws -> OpenedDocument {
        guard isolate else { return .local(try open(path, needing: capabilities)) }
        var arguments = ["worker", "--log-level", logLevel.rawValue]
        if let backend { arguments += ["--backend", backend] }
        let isolation = IsolationOptions(
            executable: Self.executablePath, arguments: arguments, timeLimit: timeLimit, memoryBytes: memoryMiB << 20)
        return .isolated(try IsolatedDocument(
            path: path, password: try password(), backend: selection, needing: capabilities,
            limits: DocumentLimits(cacheBytes: cacheMiB << 20), isolation: isolation))
    }

    /// This program's own executable.
    private static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Render options with the limits given on the command line.
    func renderOptions(dpi: Double, clip: PageRect? = nil, pixelFormat: PixelFormat = .rgb, background: Color = .white) -> RenderOptions {
        RenderOptions(
            dpi: dpi, clip: clip, pixelFormat: pixelFormat, background: background,
            maximumPixelCount: Int(maximumMegapixels * 1e6), maximumDPI: maximumDPI)
    }

    /// The backend from --backend, else HOSTAPP_BACKEND, else auto.
    var selection: BackendSelection {
        BackendSelection(backend ?? ProcessInfo.processInfo.environment["HOSTAPP_BACKEND"] ?? "auto")
    }

    /// The renderers linked into hostapp, MuPDF first (so `auto` prefers it), logging to stderr.
    func registry() -> RendererRegistry {
        var logger = Logger(label: "hostapp") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        var mupdf = logger
        mupdf[metadataKey: "engine"] = "mupdf"
        var poppler = logger
        poppler[metadataKey: "engine"] = "poppler"
        return RendererRegistry([MuPDFRenderer(logger: mupdf), PopplerRenderer(logger: poppler)])
    }

    /// The password from --password, else --password-file, else HOSTAPP_PASSWORD, else none.
    /// Errors name the file, never what it holds.
    func password() throws -> String? {
        if let passwordArgument { return passwordArgument }
        guard let passwordFile else { return ProcessInfo.processInfo.environment["HOSTAPP_PASSWORD"] }
        let data: Data
        do {
            data = passwordFile == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: passwordFile))
        } catch {
            throw RendererError(.ioFailure, "cannot read the password file \(passwordFile): \((error as NSError).localizedDescription)")
        }
        let firstLine = data.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
        return String(decoding: firstLine.last == UInt8(ascii: "\r") ? firstLine.dropLast() : firstLine, as: UTF8.self)
    }

    /// Opens `path` with the selected backend and password, in this process, under the
    /// ``StallWatch``. Commands that cannot run isolated refuse --isolate here.
    func open(_ path: String, needing capabilities: Set<Capability> = []) throws -> Document {
        if isolate { throw RendererError(.invalidArgument, "--isolate works with the info, render and text commands only") }
        StallWatch.start(file: path, timeLimit: timeLimit)
        let files = try fileSystem()
        let source: DocumentSource = files is LocalFileSystem ? .file(path) : .stream(try files.documentStream(path))
        return try registry().open(
            source, password: try password(), backend: selection, needing: capabilities, limits: DocumentLimits(cacheBytes: cacheMiB << 20))
    }

    /// Opens a reading session on `path` with the settings of --settings, in the vault of
    /// --vault if given: the way every command that changes a document goes.
    func openSession(
        _ path: String, pageIndex: Int? = nil, viewingState: ViewingState? = nil, bookmarks: [Bookmark] = [],
        delegate: (any ReadingSessionDelegate)? = nil
    ) throws -> ReadingSession {
        if isolate { throw RendererError(.invalidArgument, "--isolate works with the info, render and text commands only") }
        StallWatch.start(file: path, timeLimit: timeLimit)
        let configuration = SessionConfiguration(
            pageIndex: pageIndex, password: try password(), backend: selection, limits: DocumentLimits(cacheBytes: cacheMiB << 20),
            settings: try documentSettings(), bookmarks: bookmarks, fileSystem: try fileSystem())
        let session = ReadingSession(
            file: FileState(internalPath: path, viewingState: viewingState), registry: registry(), configuration: configuration, delegate: delegate)
        try session.open()
        return session
    }

    /// The settings of --settings; all allowed without it.
    func documentSettings() throws -> DocumentSettings {
        guard let settings else { return DocumentSettings() }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: settings))
        } catch {
            throw RendererError(FileManager.default.fileExists(atPath: settings) ? .ioFailure : .fileNotFound, "cannot read the settings file \(settings)")
        }
        do {
            return try DocumentSettings.fromJSON(data)
        } catch let error as RendererError {
            throw RendererError(error.code, "\(settings): \(error.message)")
        }
    }

    /// The vault of --vault and --key-file, else the local disk.
    func fileSystem() throws -> any FileSystem {
        guard let vault, let keyFile else { return LocalFileSystem() }
        return try VaultFileSystem(root: vault, key: VaultKey(contentsOfFile: keyFile))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
