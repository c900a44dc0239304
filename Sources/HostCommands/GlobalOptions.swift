import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import RendererIsolation
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// The options every command takes, given before the subcommand's name (`hostapp
/// --renderer poppler info x.pdf`, parsed by the root command), after it, or both: after
/// wins. ``HostSubcommand`` merges the two into these values, with their defaults.
package struct GlobalOptions: Sendable {
    package var renderer: String?
    package var passwordArgument: String?
    package var passwordFile: String?
    /// How messages are written on standard error.
    package var log = LogSettings(level: .error, format: .text)
    package var cacheMiB: Int = DocumentLimits.defaultCacheBytes >> 20
    package var maximumDPI: Double = RenderOptions.defaultMaximumDPI
    package var maximumMegapixels: Double = Double(RenderOptions.defaultMaximumPixelCount) / 1e6
    package var timeLimitSeconds: Double = 120
    package var isolate = false
    package var memoryMiB: Int = IsolationOptions.defaultMemoryBytes >> 20
    package var layoutSize: String?
    package var fontSize: Double?
    package var settings: String?
    package var vault: String?
    package var keyFile: String?
    /// Which pages text recognition reads (--ocr, --force-ocr); nil for none.
    package var ocrPages: TextRecognition.Pages?
    package var ocrLanguages = "eng"
    package var ocrDPI = TextRecognition.defaultDPI
    /// Whether an engine working in this process that makes no progress for twice the time
    /// limit ends the program (``StallWatch``): so for a command, which ends anyway; not for
    /// a server that outlives its calls (`hostapp mcp`), whose idle time is no stall.
    package var endsOnStall = true

    /// The defaults: the options of a command given none.
    package init() {}

    /// The options of a command given none, whose values the options' help states.
    package static let defaults = GlobalOptions()

    /// The options given `before` the subcommand's name, overridden by those given `after`.
    package init(before: GlobalArguments, after: GlobalArguments) {
        renderer = after.renderer ?? before.renderer
        passwordArgument = after.passwordArgument ?? before.passwordArgument
        passwordFile = after.passwordFile ?? before.passwordFile
        log.level = after.logLevel ?? before.logLevel ?? log.level
        log.format = after.logFormat ?? before.logFormat ?? log.format
        cacheMiB = after.cacheMiB ?? before.cacheMiB ?? cacheMiB
        maximumDPI = after.maximumDPI ?? before.maximumDPI ?? maximumDPI
        maximumMegapixels = after.maximumMegapixels ?? before.maximumMegapixels ?? maximumMegapixels
        timeLimitSeconds = after.timeLimitSeconds ?? before.timeLimitSeconds ?? timeLimitSeconds
        isolate = after.isolate || before.isolate
        memoryMiB = after.memoryMiB ?? before.memoryMiB ?? memoryMiB
        layoutSize = after.layoutSize ?? before.layoutSize
        fontSize = after.fontSize ?? before.fontSize
        settings = after.settings ?? before.settings
        vault = after.vault ?? before.vault
        keyFile = after.keyFile ?? before.keyFile
        if after.forceOCR || before.forceOCR {
            ocrPages = .all
        } else if after.ocr || before.ocr || after.ocrLanguages != nil || before.ocrLanguages != nil {
            ocrPages = .withoutText
        }
        ocrLanguages = after.ocrLanguages ?? before.ocrLanguages ?? ocrLanguages
        ocrDPI = after.ocrDPI ?? before.ocrDPI ?? ocrDPI
    }

    /// Text recognition of `pages` (default: those --ocr and --force-ocr name; nil when
    /// they name none) in the languages of --ocr-languages, each page drawn at --ocr-dpi
    /// within the drawing limits and read within the time limit. Throws `unsupported` in a
    /// program that links no recognizer, and what the recognizer throws for its languages.
    package func textRecognition(of pages: TextRecognition.Pages? = nil) throws -> TextRecognition? {
        guard let pages = pages ?? ocrPages else { return nil }
        guard let recognizer = HostProgram.current.textRecognizer else {
            throw RendererError(.unsupported, "this program does not recognise text; hostapp-full does")
        }
        var recognition = TextRecognition(recognizer: try recognizer(ocrLanguages), pages: pages, dpi: ocrDPI, timeLimit: timeLimit)
        recognition.renderOptions = renderOptions(dpi: ocrDPI, pixelFormat: .gray)
        return recognition
    }

    /// The time one page may take, or nil for no limit.
    package var timeLimit: Duration? {
        timeLimitSeconds > 0 ? .nanoseconds(Int64(min(timeLimitSeconds, 1e9) * 1e9)) : nil
    }

    /// The cancellation for work on one page: `batch`'s, with the page's time limit.
    package func pageCancellation(within batch: Cancellation) -> Cancellation {
        timeLimit.map { Cancellation(timeLimit: $0, within: batch) } ?? batch
    }

    /// How engine processes are started: this program's `worker` command, with the time
    /// and memory limits given.
    package func isolationOptions() -> IsolationOptions {
        IsolationOptions(
            executable: Self.executablePath, arguments: ["worker", "--log-level", log.level.rawValue, "--log-format", log.format.rawValue], timeLimit: timeLimit,
            memoryBytes: memoryMiB << 20)
    }

    /// This program's own executable.
    private static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Render options with the limits given on the command line.
    package func renderOptions(
        dpi: Double, clip: PageRect? = nil, pixelFormat: PixelFormat = .rgb, background: Color = .white, annotations: Bool = true,
        box: PageBox = .crop
    ) -> RenderOptions {
        var options = RenderOptions(
            dpi: dpi, clip: clip, pixelFormat: pixelFormat, background: background,
            maximumPixelCount: Int(maximumMegapixels * 1e6), maximumDPI: maximumDPI)
        options.annotations = annotations
        options.box = box
        return options
    }

    /// The renderer from --renderer (or --backend), else the environment's
    /// (``environmentRenderer``), else auto.
    package var selection: RendererSelection {
        RendererSelection(renderer ?? Self.environmentRenderer ?? "auto")
    }

    /// The renderer the environment names: `HOSTAPP_RENDERER`, else `HOSTAPP_BACKEND` (its
    /// former name, still read in this release); nil when neither is set.
    package static var environmentRenderer: String? {
        environment("HOSTAPP_RENDERER") ?? environment("HOSTAPP_BACKEND")
    }

    /// The environment variable `name`, or nil when it is not set. Read alone: a thumbnail
    /// run is short enough that copying the whole environment into a dictionary, as
    /// `ProcessInfo.environment` does on each call, is a measurable part of it.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The renderers the running program links (``HostProgram/renderers``), or those it
    /// serves `auto` with (``HostProgram/partialAuto``), logging to stderr; with --isolate,
    /// each in engine processes (this program's `worker` command).
    package func registry() -> RendererRegistry {
        if isolate { return RendererRegistry(IsolatedRenderer.isolating(HostProgram.current.renderers(log), with: isolationOptions())) }
        if selection == .auto, let partialAuto = HostProgram.current.partialAuto {
            return RendererRegistry(partialAuto.renderers(log))
        }
        return RendererRegistry(HostProgram.current.renderers(log))
    }

    /// Runs `open`. In a program that serves `auto` in part, a file its renderers do not
    /// open (damaged for them, no pages, a password wanted, any other failure) is handed,
    /// with this run's arguments, to the program that links every engine, which answers as
    /// `auto` does there; nothing has been written yet.
    private func handingOffWhatAutoCannotOpen<T>(_ open: () throws -> T) throws -> T {
        guard selection == .auto, let partialAuto = HostProgram.current.partialAuto else { return try open() }
        do {
            return try open()
        } catch {
            HostApp.handOff(Array(CommandLine.arguments.dropFirst()), to: partialAuto.executable)
        }
    }

    /// The password from --password, else --password-file, else HOSTAPP_PASSWORD, else none.
    /// Errors name the file, never what it holds.
    package func password() throws -> String? {
        try DataFiles.secret(passwordArgument, orFile: passwordFile, option: "--password") ?? Self.environment("HOSTAPP_PASSWORD")
    }

    /// Opens `path` with the selected backend and password: in this process under the
    /// ``StallWatch``, or with --isolate in an engine process.
    package func open(_ path: String, needing capabilities: Set<Capability> = []) throws -> Document {
        if !isolate, endsOnStall { StallWatch.start(file: path, timeLimit: timeLimit) }
        let files = try fileSystem()
        let source: DocumentSource = files is LocalFileSystem ? .file(path) : .stream(try files.documentStream(path))
        let document = try handingOffWhatAutoCannotOpen {
            try registry().open(
                source, password: try password(), renderer: selection, needing: capabilities, limits: DocumentLimits(cacheBytes: cacheMiB << 20))
        }
        try applyLayout(to: document)
        document.textRecognition = try textRecognition()
        return document
    }

    /// Lays a reflowable document out as --layout and --font-size say; a note for other documents.
    private func applyLayout(to document: Document) throws {
        guard layoutSize != nil || fontSize != nil else { return }
        guard document.isReflowable else {
            return Failure.printNote("--layout and --font-size apply to EPUB and FictionBook books; this document's pages are fixed")
        }
        let size = try layoutSize.map { try PageSize(argument: $0, option: "--layout") } ?? Document.defaultLayoutPageSize
        try document.layout(pageSize: size, fontSize: fontSize ?? Document.defaultLayoutFontSize)
    }

    /// Opens a reading session on `path` with the settings of --settings, in the vault of
    /// --vault if given: the way every command that changes a document goes.
    package func openSession(
        _ path: String, pageIndex: Int? = nil, viewingState: ViewingState? = nil, bookmarks: [Bookmark] = [],
        delegate: (any ReadingSessionDelegate)? = nil
    ) throws -> ReadingSession {
        if !isolate, endsOnStall { StallWatch.start(file: path, timeLimit: timeLimit) }
        var configuration = SessionConfiguration(
            pageIndex: pageIndex, password: try password(), renderer: selection, limits: DocumentLimits(cacheBytes: cacheMiB << 20),
            settings: try documentSettings(), bookmarks: bookmarks, fileSystem: try fileSystem())
        configuration.textRecognition = try textRecognition()
        let session = ReadingSession(
            file: FileState(internalPath: path, viewingState: viewingState), registry: registry(), configuration: configuration, delegate: delegate)
        try handingOffWhatAutoCannotOpen { try session.open() }
        return session
    }

    /// Throws `notPermitted` unless the settings of --settings (all allowed without it) and
    /// the PDF's own permissions, for the password given, allow every one of `features` on
    /// `path`: what a command that writes a new file or exports checks before it starts (one
    /// that edits goes through ``SaveOptions`` and its session). `document`, the command's
    /// own when it has opened `path` already, is asked for the PDF's permissions. Without
    /// --settings, an engine that reads no permissions (Ghostscript) has none checked.
    package func checkSettings(permit features: [SessionFeature], on path: String, opened document: Document? = nil) throws {
        if settings != nil {
            let session = try openSession(path)
            defer { session.close() }
            for feature in features { try session.check(feature) }
            return
        }
        guard features.contains(where: { $0.pdfPermission != nil }) else { return }
        let permissions: DocumentPermissions
        do {
            permissions = try (document ?? open(path)).info().permissions
        } catch let error as RendererError where error.code == .unsupported {
            return
        }
        for feature in features { try DocumentSettings().check(feature, pdfPermissions: permissions) }
    }

    /// The settings of --settings; all allowed without it.
    package func documentSettings() throws -> DocumentSettings {
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
    package func fileSystem() throws -> any FileSystem {
        if (vault == nil) != (keyFile == nil) { throw RendererError(.invalidArgument, "--vault and --key-file go together") }
        guard let vault, let keyFile else { return LocalFileSystem() }
        if isolate { throw RendererError(.invalidArgument, "--isolate cannot read from a vault: the engine process would need the key") }
        guard let openVault = HostProgram.current.vault else { throw RendererError(.unsupported, "this program does not read vaults") }
        return try openVault(vault, keyFile)
    }
}

/// A command under `hostapp` that takes the global options: its own (after its name) and
/// the root command's (before it).
package protocol HostSubcommand: ParsableCommand {
    /// The global options given after the subcommand's name.
    var globalArguments: GlobalArguments { get }
    /// The root command, with the global options given before the subcommand's name.
    var hostApp: HostApp { get }
}

extension HostSubcommand {
    /// The global options in force.
    package var global: GlobalOptions { GlobalOptions(before: hostApp.globalArguments, after: globalArguments) }
}

/// A command under `hostapp` whose one positional argument is the document it works on.
package protocol DocumentCommand: HostSubcommand {
    /// The document and the global options given after the command's name.
    var documentArguments: DocumentArguments { get }
}

extension DocumentCommand {
    /// The document the command works on.
    package var file: String { documentArguments.file }
    package var globalArguments: GlobalArguments { documentArguments.globalArguments }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
extension SaveMode: ExpressibleByArgument {}
