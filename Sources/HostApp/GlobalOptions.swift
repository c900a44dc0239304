import ArgumentParser
import Foundation
import Logging
import MuPDFRenderer
import PopplerRenderer
import RendererProvider

/// Options every subcommand takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Renderer: mupdf, poppler or auto (default: $HOSTAPP_BACKEND, else auto).", valueName: "backend"))
    var backend: String?

    @Option(help: "Password (user or owner) for encrypted documents.")
    var password: String?

    @Option(help: ArgumentHelp("Lowest level of engine messages shown on stderr: trace, debug, info, notice, warning, error.", valueName: "level"))
    var logLevel: Logger.Level = .error

    @Option(name: .customLong("cache-mib"), help: ArgumentHelp("Most memory the engine keeps in caches for a document, in MiB.", valueName: "MiB"))
    var cacheMiB: Int = DocumentLimits.defaultCacheBytes >> 20

    func validate() throws {
        guard cacheMiB > 0, cacheMiB <= 1 << 20 else { throw ValidationError("--cache-mib must be between 1 and 1048576") }
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

    /// Opens `path` with the selected backend and password.
    func open(_ path: String, needing capabilities: Set<Capability> = []) throws -> Document {
        try registry().open(
            .file(path), password: password, backend: selection, needing: capabilities,
            limits: DocumentLimits(cacheBytes: cacheMiB << 20))
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
