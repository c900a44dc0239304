import ArgumentParser
import Logging
import RendererProvider

/// The global options as the command line gives them, each optional: parsed once by the
/// root command (before a subcommand's name) and once by the subcommand (after it).
/// ``GlobalOptions`` merges them and holds the defaults.
package struct GlobalArguments: ParsableArguments {
    package init() {}

    @Option(
        name: [.customLong("renderer"), .customLong("backend")],
        help: ArgumentHelp(
            "Renderer: mupdf, poppler, ghostscript (hostapp-full) or auto, which tries MuPDF, then Poppler (default: $HOSTAPP_RENDERER, else auto). --backend and $HOSTAPP_BACKEND, its former names, still work in this release.",
            valueName: "renderer"),
        completion: .list(["mupdf", "poppler", "ghostscript", "auto"]))
    package var renderer: String?

    @Option(name: .customLong("password"), help: ArgumentHelp(
        "Password (user or owner) for encrypted documents; other users may see it in the process list, so prefer --password-file or $HOSTAPP_PASSWORD.",
        valueName: "password"))
    package var passwordArgument: String?

    @Option(help: ArgumentHelp("Read the password from the first line of this file (- for standard input).", valueName: "file"), completion: .file())
    package var passwordFile: String?

    @Option(help: ArgumentHelp(
        "Lowest level of messages shown on stderr (the engines' and the server's): trace, debug, info, notice, warning, error (default: \(GlobalOptions.defaults.log.level)).", valueName: "level"),
        completion: .list(["trace", "debug", "info", "notice", "warning", "error"]))
    package var logLevel: Logger.Level?

    @Option(help: ArgumentHelp(
        "How log messages (the engines' and the server's) are written on stderr: text, or json (a JSON object a line, for a log collector) (default: \(GlobalOptions.defaults.log.format.rawValue)).",
        valueName: "format"))
    package var logFormat: LogFormat?

    @Option(name: .customLong("cache-mib"), help: ArgumentHelp("Most memory the engine keeps in caches for a document, in MiB (default: \(GlobalOptions.defaults.cacheMiB)).", valueName: "MiB"))
    package var cacheMiB: Int?

    @Option(name: .customLong("max-dpi"), help: ArgumentHelp("Highest resolution a page may be drawn at (default: \(Int(GlobalOptions.defaults.maximumDPI))).", valueName: "dpi"))
    package var maximumDPI: Double?

    @Option(name: .customLong("max-megapixels"), help: ArgumentHelp("Largest image a page may be drawn into, in millions of pixels (default: \(Int(GlobalOptions.defaults.maximumMegapixels))).", valueName: "n"))
    package var maximumMegapixels: Double?

    @Option(name: .customLong("time-limit"), help: ArgumentHelp(
        "Longest time one page may take, in seconds (0: no limit; default: \(Int(GlobalOptions.defaults.timeLimitSeconds))). With --isolate it bounds every step (opening, each page), and the engine is stopped; without, it bounds drawing: MuPDF stops within the page, Poppler before it.",
        valueName: "seconds"))
    package var timeLimitSeconds: Double?

    @Flag(help: "Run the engine in a child process, so that an engine crash, a hang past --time-limit or exhausted memory fails the page or document, not hostapp.")
    package var isolate = false

    @Option(name: .customLong("memory-mib"), help: ArgumentHelp("With --isolate, the most address space the engine process may use, in MiB (default: \(GlobalOptions.defaults.memoryMiB)).", valueName: "MiB"))
    package var memoryMiB: Int?

    @Option(name: .customLong("layout"), help: ArgumentHelp(
        "For EPUB and FictionBook books, which the engine lays out: the page size in points, such as 300x400 (default: \(Int(Document.defaultLayoutPageSize.width))x\(Int(Document.defaultLayoutPageSize.height))).",
        valueName: "WxH"))
    package var layoutSize: String?

    @Option(name: .customLong("font-size"), help: ArgumentHelp("For EPUB and FictionBook books: the text size in points (default: \(Int(Document.defaultLayoutFontSize))).", valueName: "points"))
    package var fontSize: Double?

    @Option(help: ArgumentHelp(
        "Document settings (JSON) that editing commands, render and open enforce with the PDF's own permissions.", valueName: "file"),
        completion: .file(extensions: ["json"]))
    package var settings: String?

    @Option(help: ArgumentHelp("Read and write documents in this encrypted vault (a directory); FILE then names an entry in it.", valueName: "directory"),
        completion: .directory)
    package var vault: String?

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The vault's key: 64 hexadecimal digits or 32 bytes.", valueName: "file"), completion: .file())
    package var keyFile: String?

    @Flag(help: "Read the text of pages that have none (scans) from their image with Tesseract (hostapp-full), for text, search and every command that reads text.")
    package var ocr = false

    @Flag(name: .customLong("force-ocr"), help: "Read every page's text from its image, whatever text it holds (implies --ocr).")
    package var forceOCR = false

    @Option(name: .customLong("ocr-languages"), help: ArgumentHelp(
        "The languages text recognition reads, Tesseract's names joined by + (default: \(GlobalOptions.defaults.ocrLanguages)); each needs Debian's tesseract-ocr-LANG.",
        valueName: "languages"))
    package var ocrLanguages: String?

    @Option(name: .customLong("ocr-dpi"), help: ArgumentHelp(
        "The resolution pages are drawn at for text recognition (default: \(Int(TextRecognition.defaultDPI))).", valueName: "dpi"))
    package var ocrDPI: Double?

    package func validate() throws {
        if let memoryMiB, memoryMiB < 64 { throw ValidationError("--memory-mib must be at least 64") }
        if let cacheMiB, !(1...(1 << 20)).contains(cacheMiB) { throw ValidationError("--cache-mib must be between 1 and 1048576") }
        if let maximumDPI, !(maximumDPI.isFinite && maximumDPI > 0) { throw ValidationError("--max-dpi must be a positive number") }
        if let maximumMegapixels, !(maximumMegapixels.isFinite && maximumMegapixels > 0 && maximumMegapixels <= 1e9) {
            throw ValidationError("--max-megapixels must be a positive number up to 1000000000")
        }
        if let ocrDPI, !(ocrDPI.isFinite && ocrDPI >= 36 && ocrDPI <= 1200) { throw ValidationError("--ocr-dpi must be between 36 and 1200") }
        if let timeLimitSeconds, !(timeLimitSeconds.isFinite && timeLimitSeconds >= 0) {
            throw ValidationError("--time-limit must be 0 or a positive number of seconds")
        }
    }
}

/// What a command that works on one document takes besides its own options: the document
/// (its one positional argument) and the global options given after the command's name.
/// A command declares it last (``DocumentCommand``), so that its help lists its own options
/// before the global ones.
package struct DocumentArguments: ParsableArguments {
    package init() {}

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    package var file: String

    @OptionGroup package var globalArguments: GlobalArguments
}
