import ArgumentParser
import Foundation
import HostCommands
import Logging
import ProcessSpawning
import RendererPrinting
import RendererProvider
import RendererServer

/// One document in the browser viewer, as a desktop opens a file with an application: a
/// server of its own on a free loopback port with a new token, opened in the default browser,
/// ending when the viewer's tab does (or at Ctrl-C).
struct ViewCommand: AsyncParsableCommand, HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "view", abstract: "Open a document in the browser viewer, and stop when its tab is closed.",
        discussion: """
            The server serves that file alone, on loopback, with a token made for this run. The browser is $BROWSER, else \
            xdg-open; it is given a page in a private temporary folder that leads to the viewer, so the token never appears \
            in a command line. The server stops when the viewer's tab has been closed for --linger seconds (a reload keeps \
            it), or at SIGINT or SIGTERM. The viewer can print to the desktop's CUPS printers. Reading places and bookmarks are kept as serve keeps them.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document to open.", completion: .file()) var file: String
    @Flag(help: "Print the viewer's address (with its token) instead of opening a browser.") var noBrowser = false
    @Option(help: "Seconds the server waits for a closed tab to come back (a reload) before it stops.") var linger = 10
    @Option(help: ArgumentHelp("The CUPS print server the viewer prints to (default: CUPS's own).", valueName: "server")) var printServer: String?
    @OptionGroup var globalArguments: GlobalArguments

    func validate() throws {
        guard linger >= 1 else { throw ValidationError("--linger must be at least 1 second") }
    }

    func run() async throws {
        // The server serves PDFs only: anything else is refused here, in words, before a browser opens.
        let type: ContentType
        do {
            type = try DocumentSource.file(file).sniffContentType()
        } catch let error as RendererError {
            throw Failure.ending(with: error)
        }
        guard type == .pdf else {
            Failure.printError("\(file) is not a PDF; the viewer shows PDFs (hostapp info, render and text read the other formats)")
            throw ExitCode(Failure.exitCode(for: RendererError(.unsupportedFormat, "")))
        }
        let token = RunFiles.randomToken()
        var configuration = ServerConfiguration(roots: [file], token: token, port: 0)
        configuration.renderer = global.selection
        configuration.password = try global.password()
        configuration.readerStatePath = RunFiles.readerStatePath
        configuration.endsWithViewer = true
        // One reader on their own machine: the viewer offers the desktop's printers.
        configuration.printing = PrintService(server: printServer)
        configuration.viewerLinger = .seconds(linger)
        let logger = Logger.hostapp("hostapp.view", global.log)
        let server: DocumentServer
        do {
            server = try DocumentServer(configuration: configuration, registry: global.registry(), logger: logger)
        } catch let error as RendererError {
            throw Failure.ending(with: error)
        }
        let folder = try TemporaryFolder.make(named: "hostapp-view")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let id = URL(fileURLWithPath: file).lastPathComponent
        let (noBrowser, name) = (self.noBrowser, id)
        try await server.run { port in
            let address = "http://127.0.0.1:\(port)/?token=\(token)#doc=" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id)
            if noBrowser {
                FileHandle.standardOutput.write(Data("Viewing \(name) at \(address)\n".utf8))
                return
            }
            FileHandle.standardOutput.write(Data("Viewing \(name) at http://127.0.0.1:\(port)/ (close its tab or press Ctrl-C to stop)\n".utf8))
            do {
                try Self.openBrowser(leadingTo: address, from: folder)
            } catch {
                Failure.printError("cannot open a browser (\(error)); open \(address) yourself")
            }
        }
    }

    /// Hands the browser a page, readable by this user only, that leads to `address`.
    private static func openBrowser(leadingTo address: String, from folder: String) throws {
        let page = folder + "/open.html"
        let html = "<!doctype html><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url=\(address)\"><title>hostapp</title>\n"
        guard FileManager.default.createFile(atPath: page, contents: Data(html.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw RendererError(.ioFailure, "cannot write the page that leads to the viewer")
        }
        let browser = ProcessInfo.processInfo.environment["BROWSER"].flatMap { $0.isEmpty ? nil : $0.split(separator: ":").first.map(String.init) }
        let opener: ChildProcess
        do {
            opener = try ChildProcess(browser ?? "xdg-open", [URL(fileURLWithPath: page).absoluteString])
        } catch {
            throw RendererError(.ioFailure, "\(error)")
        }
        // Reaped when it ends (a browser may run on), so that it leaves no zombie behind.
        Thread.detachNewThread { opener.wait() }
    }
}
