import ArgumentParser
import HostCommands
import Foundation
import RendererProvider
import RendererProviderStore

struct OpenCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Run a reading session: follow commands from standard input and print the session's events as JSON lines.",
        discussion: """
            The session opens at --page, else where the last session of the document closed
            (kept with its bookmarks by the document's fingerprint, as the bookmarks command
            keeps them), else at page 1. Then each line of standard input is a command; at
            the end of the input the session closes. On a terminal a prompt is shown.

              page N                  go to page N
              zoom Z                  set the zoom (1 is 100%)
              scroll X Y              scroll to the point X,Y of the page (points)
              bookmark add N [TITLE]  bookmark page N
              bookmark remove ID      remove a bookmark
              annotate JSON           add an annotation (the JSON of annotations list --json, one object)
              update JSON             change an annotation, found by its "id"
              remove ID               remove an annotation
              render N FILE [DPI]     export page N as a PNG file (needs the printing setting)
              text N                  print page N's text
              dark on|off             switch dark mode (needs the darkMode setting)
              save [MODE]             save over the file (automatic, incremental or rewrite); refused
                                      (exit 75) when someone else changed the file meanwhile
              save-to PATH            save a copy
              close                   close the session

            Every line printed is a JSON object: {"event": ...} for the session's events, in the
            order they happen, {"result": ...} for what a command asked for, {"error": ...} for
            a command that failed (the session goes on). Pages are 1-based; annotations are
            given and printed in the API's JSON, whose pageIndex is 0-based. The exit code is
            that of the first failed command, else 0.
            """)

    @ParentCommand var hostApp: HostApp
    @Argument(help: "The PDF file (an entry of the vault, with --vault).", completion: .file(extensions: ["pdf"])) var file: String
    @Option(help: "The page to open at, 1-based.") var page: Int?
    @OptionGroup var globalArguments: GlobalArguments

    func run() throws {
        var status: Int32 = 0
        try Failure.reporting {
            let store = try SQLiteStateStore(path: SQLiteStateStore.defaultPath(application: "hostapp"))
            let files = try global.fileSystem()
            let fingerprint = try DocumentFingerprint.of(global.open(file, needing: [.metadata]).info(), path: file, in: files)
            let printer = SessionPrinter(
                store: store, fingerprint: fingerprint, bookmarks: try store.bookmarks(for: fingerprint), file: file, fileSystem: files)
            let session = try global.openSession(
                file, pageIndex: page.map { $0 - 1 }, viewingState: try store.viewingState(for: fingerprint),
                bookmarks: printer.bookmarks, delegate: printer)
            let onDisk = files is LocalFileSystem ? try SavedFile(path: file) : nil
            let interactive = isatty(STDIN_FILENO) != 0
            while !session.isClosed {
                if interactive { FileHandle.standardError.write(Data("open> ".utf8)) }
                // Waiting for the next command is no engine's stall (see StallWatch).
                StallWatch.pause()
                guard let line = readLine() else { break }
                StallWatch.resume()
                let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                guard !words.isEmpty else { continue }
                do {
                    try Self.perform(words, line: line, on: session, printer: printer, onDisk: onDisk)
                } catch let error as RendererError {
                    printer.printError(error)
                    if status == 0 { status = Failure.exitCode(for: error) }
                }
            }
            session.close()
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs one command line.
    private static func perform(_ words: [String], line: String, on session: ReadingSession, printer: SessionPrinter, onDisk: SavedFile?) throws {
        func number(_ index: Int, _ name: String) throws -> Int {
            guard words.count > index, let value = Int(words[index]) else { throw RendererError(.invalidArgument, "\(words[0]) needs \(name)") }
            return value
        }
        func decimal(_ index: Int, _ name: String) throws -> Double {
            guard words.count > index, let value = Double(words[index]), value.isFinite else { throw RendererError(.invalidArgument, "\(words[0]) needs \(name)") }
            return value
        }
        func rest(after count: Int) -> String {
            var remainder = Substring(line)
            for _ in 0..<count {
                remainder = remainder.drop { $0 == " " }
                remainder = remainder.drop { $0 != " " }
            }
            return String(remainder.drop { $0 == " " })
        }
        func annotation() throws -> Annotation {
            let list = try Annotation.annotations(fromJSON: Data("[\(rest(after: 1))]".utf8))
            guard list.count == 1 else { throw RendererError(.invalidArgument, "\(words[0]) needs one annotation as JSON") }
            return list[0]
        }
        switch (words[0], words.count > 1 ? words[1] : "") {
        case ("page", _):
            try session.goToPage(try number(1, "a page number") - 1)
        case ("zoom", _):
            var state = try session.viewingState
            state.zoom = try decimal(1, "a zoom factor")
            try session.setViewingState(state)
        case ("scroll", _):
            var state = try session.viewingState
            state.scrollOffset = PagePoint(x: try decimal(1, "x and y"), y: try decimal(2, "x and y"))
            try session.setViewingState(state)
        case ("bookmark", "add"):
            let page = try number(2, "a page number")
            let title = rest(after: 3)
            try session.addBookmark(pageIndex: page - 1, title: title.isEmpty ? "Page \(try session.pageInfo(pageAt: page - 1).label)" : title)
        case ("bookmark", "remove"):
            guard words.count > 2 else { throw RendererError(.invalidArgument, "bookmark remove needs the bookmark's id") }
            try session.removeBookmark(id: words[2])
        case ("annotate", _):
            try session.addAnnotation(try annotation())
        case ("update", _):
            try session.updateAnnotation(try annotation())
        case ("remove", _):
            guard words.count > 1 else { throw RendererError(.invalidArgument, "remove needs the annotation's identity") }
            try session.removeAnnotation(withID: words[1])
        case ("render", _):
            let page = try number(1, "a page number and a file")
            guard words.count > 2 else { throw RendererError(.invalidArgument, "render needs a page number and a file") }
            let dpi = words.count > 3 ? try decimal(3, "a resolution") : 72
            let size = try session.exportPage(at: page - 1, options: RenderOptions(dpi: dpi), as: .png, to: words[2])
            printer.printResult(["result": "rendered", "page": page, "file": words[2], "width": size.width, "height": size.height])
        case ("text", _):
            let page = try number(1, "a page number")
            printer.printResult(["result": "text", "page": page, "text": try session.text(pageAt: page - 1)])
        case ("dark", "on"), ("dark", "off"):
            try session.setEnabled(words[1] == "on", for: .darkMode)
        case ("save", _):
            let mode = words.count > 1 ? SaveMode(rawValue: words[1]) : .automatic
            guard let mode else { throw RendererError(.invalidArgument, "save modes are automatic, incremental and rewrite") }
            if let onDisk { try onDisk.saving { _ = try session.save(mode: mode) } } else { try session.save(mode: mode) }
        case ("save-to", _):
            guard words.count > 1 else { throw RendererError(.invalidArgument, "save-to needs a path") }
            try session.save(to: rest(after: 1))
        case ("close", _):
            session.close()
        default:
            throw RendererError(.invalidArgument, "unknown command \"\(words[0])\"; see hostapp open --help")
        }
    }
}

/// The session's file on the local disk as the session last saw it (opened or saved), so
/// that a save never overwrites another writer's change: each save holds the file's
/// ``FileWriteLock`` and is refused with `conflict` when the file is no longer the one seen.
final class SavedFile {
    let path: String
    private var seen: String

    init(path: String) throws {
        self.path = path
        seen = try Self.version(of: path)
    }

    /// Runs `save` holding the file's write lock, once the file is found unchanged since the
    /// session last saw it; then remembers the file saved.
    func saving(_ save: () throws -> Void) throws {
        try FileWriteLock.holding(path) {
            guard try Self.version(of: path) == seen else {
                throw RendererError(
                    .conflict, "\(path) changed since this session opened or saved it; nothing was overwritten (save-to saves a copy)")
            }
            try save()
            seen = try Self.version(of: path)
        }
    }

    private static func version(of path: String) throws -> String {
        guard let version = FileVersion.of(path) else { throw RendererError(.ioFailure, "\(path) is gone") }
        return version
    }
}
