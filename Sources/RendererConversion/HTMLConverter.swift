import Foundation
import ProcessSpawning
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// HTML made into PDF by headless Chromium's print to PDF, with no network from the page: the
/// document is served at an unguessable address on a loopback port of its own
/// (`LoopbackPage`), so that it may load no file of the machine, and every other address the
/// page asks for, loopback ones included, goes through a proxy at a closed port with names
/// resolving to nothing. A page that takes past the time limit (a script that never ends) fails,
/// and Chromium, its whole process group, is ended. A document is self-contained: its styles
/// and pictures inline (`data:` addresses), as nothing else is fetched.
///
/// Needs Debian's `chromium`.
public struct HTMLConverter: Sendable {
    /// Where Chromium is, and how long a page may take.
    public struct Configuration: Sendable {
        /// Chromium's program.
        public var chromium: String
        /// How long a conversion may take.
        public var timeLimit: Duration
        /// The folder each conversion's working folder (Chromium's profile, the printed PDF)
        /// is made in and removed from.
        public var workFolder: URL

        /// Chromium on the PATH, 60 seconds a page, working in the temporary folder.
        public init(chromium: String = "chromium", timeLimit: Duration = .seconds(60), workFolder: URL = FileManager.default.temporaryDirectory) {
            self.chromium = chromium
            self.timeLimit = timeLimit
            self.workFolder = workFolder
        }
    }

    /// The file name extensions of the documents converted.
    public static let documentExtensions: Set<String> = ["html", "htm", "xhtml"]
    /// The media types of the documents converted.
    public static let mediaTypes: Set<String> = ["text/html", "application/xhtml+xml"]
    /// The largest document converted, in bytes.
    public static let maximumBytes = 64 << 20

    /// The program and limit it runs with.
    public let configuration: Configuration

    /// A converter with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Whether `path` names a document this converter takes, by its extension.
    public static func takes(_ path: String) -> Bool {
        documentExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Whether the file at `path` is an HTML document by its first bytes, as a browser tells
    /// one that comes without a name: after a byte order mark, white space and an XML
    /// declaration, a doctype of HTML or an `html`, `head` or `body` tag.
    public static func isHTML(sniffing path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        var text = Substring(String(decoding: (try? handle.read(upToCount: 1024)) ?? Data(), as: UTF8.self).lowercased())
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        text = text.drop { $0.isWhitespace }
        if text.hasPrefix("<?xml"), let end = text.range(of: "?>") { text = text[end.upperBound...].drop { $0.isWhitespace } }
        return ["<!doctype html", "<html", "<head", "<body"].contains { tag in
            text.hasPrefix(tag) && text.dropFirst(tag.count).first.map { $0 == ">" || $0.isWhitespace } == true
        }
    }

    /// Prints the HTML document at `input` into the PDF `output`, written whole or not at all.
    /// Throws `unsupportedFormat` for another extension, `fileNotFound`, `limitExceeded` for a
    /// document past ``maximumBytes`` or a page past the time limit (`timeLimit`, else the
    /// configuration's), and `engineFailure` when Chromium cannot print it.
    public func convert(_ input: String, to output: String, timeLimit: Duration? = nil) throws {
        let name = URL(fileURLWithPath: input).lastPathComponent
        guard Self.takes(input) else { throw RendererError(.unsupportedFormat, "\(name) is not an HTML document (html, htm, xhtml)") }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: input))?[.size] as? Int,
            let html = FileManager.default.contents(atPath: input)
        else { throw RendererError(.fileNotFound, "\(name) cannot be read") }
        guard size <= Self.maximumBytes else { throw RendererError(.limitExceeded, "\(name) is larger than \(Self.maximumBytes >> 20) MiB") }
        let work = configuration.workFolder.appendingPathComponent("renderer-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let printed = work.appendingPathComponent("printed.pdf").path
        let page = try LoopbackPage(html: html)
        defer { page.stop() }
        var arguments = [
            "--headless", "--disable-gpu", "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
            "--user-data-dir=\(work.appendingPathComponent("profile").path)",
            // Nothing but the page: every address through a closed proxy, loopback ones too, names resolving to nothing.
            "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>;127.0.0.1:\(page.port)",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
            "--no-pdf-header-footer", "--print-to-pdf=\(printed)", page.url,
        ]
        // Chromium's sandbox needs user namespaces it is not given as root.
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 0) }
        let chromium = try ChildProcess(configuration.chromium, arguments, ownProcessGroup: true)
        let limit = timeLimit ?? configuration.timeLimit
        let deadline = ContinuousClock.now + limit
        while chromium.isRunning {
            guard ContinuousClock.now < deadline else {
                chromium.signalGroup(SIGKILL)
                chromium.wait()
                throw RendererError(.limitExceeded, "\(name) took longer than \(limit.components.seconds) s to print")
            }
            usleep(20_000)
        }
        // Its helpers (renderers, the zygote) go with it.
        chromium.signalGroup(SIGKILL)
        guard let bytes = FileManager.default.contents(atPath: printed), bytes.starts(with: Array("%PDF-".utf8)) else {
            throw RendererError(.engineFailure, "Chromium could not print \(name)")
        }
        let place = ConvertedOutput(output)
        do {
            try bytes.write(to: place.partial)
        } catch {
            place.discard()
            throw RendererError(.ioFailure, "the PDF of \(name) cannot be written where it was asked")
        }
        try place.putInPlace(name: name)
    }
}
