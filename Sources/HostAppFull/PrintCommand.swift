import ArgumentParser
import Foundation
import HostCommands
import RendererPrinting
import RendererProvider

/// Printing through CUPS: a document sent to a printer over IPP, with the document's
/// settings and the PDF's print permission enforced.
struct PrintCommand: AsyncParsableCommand, HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "print", abstract: "Print a document through CUPS, or list the printers.",
        discussion: """
            The document goes to the printer as PDF (with the page selection as the job's page-ranges) when the printer \
            takes PDF, else as its pages drawn at the printer's resolution (PWG raster). It is made in memory: hostapp \
            writes no copy to disk. The print server is --server, else CUPS's own (CUPS_SERVER, client.conf, the local \
            scheduler). The printing setting (--settings) and the PDF's print permission may refuse the job (exit 77); \
            with the securePrinting setting on, the job is named "document" and goes to another machine only encrypted. \
            A printer that cannot be found or reached, or that refuses or fails the job, exits 69.
            """)

    enum Duplex: String, ExpressibleByArgument, CaseIterable {
        case long, short
    }

    enum Scaling: String, EnumerableFlag {
        case fit, actualSize
    }

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document to print.", completion: .file()) var file: String?
    @Flag(help: "List the print server's printers instead (no document).") var listPrinters = false
    @Option(help: "The printer (a CUPS queue); the server's default when left out.") var printer: String?
    @Option(help: ArgumentHelp("The print server: host:port, host, or a socket's path.", valueName: "server")) var server: String?
    @Option(help: ArgumentHelp("The pages to print, such as 1-3,7 or 5-N (all by default).", valueName: "selection")) var pages: String?
    @Option(help: "How many copies.") var copies = 1
    @Option(help: "Print on both sides, turned on the long or the short edge.") var duplex: Duplex?
    @Flag(help: "Fit the pages to the paper (the default), or print them at their own size.") var scaling: Scaling = .fit
    @Flag(help: "Print in shades of grey.") var gray = false
    @Flag(help: "Hold the job at the server until it is released there.") var hold = false
    @Flag(help: "Wait until the job has ended, printing each state it goes through.") var wait = false
    @Flag(help: "Print JSON (JSON lines with --wait).") var json = false
    @OptionGroup var globalArguments: GlobalArguments

    /// What the command reports of a job.
    struct Report: Encodable {
        var job: Int
        var printer: String
        var documentFormat: String
        var pageCount: Int
        var state: PrintJobState?
    }

    /// Where a printer fails: the printer's side, EX_UNAVAILABLE.
    static let unavailable: Int32 = 69
    static let printerCodes: Set<RendererError.Code> = [.printerNotFound, .printerUnreachable, .printJobRefused, .printJobFailed]

    func validate() throws {
        guard listPrinters != (file != nil) else { throw ValidationError("give a document to print, or --list-printers alone") }
        guard copies >= 1 else { throw ValidationError("--copies must be at least 1") }
    }

    func run() async throws {
        do {
            let service = PrintService(server: server)
            guard let file else { return try list(service) }
            let session = try global.openSession(file)
            defer { session.close() }
            var options = PrintOptions(printer: printer, copies: copies, scaling: scaling == .fit ? .fit : .actualSize, grayscale: gray, held: hold)
            options.sides = switch duplex { case .long: .longEdge; case .short: .shortEdge; case nil: .oneSided }
            options.pages = try pages.map { try PageSelection(text: $0).indices(pageCount: session.pageCount) }
            let job = try session.print(options: options, through: service)
            report(job, state: nil)
            guard wait else { return }
            try await service.waitUntilFinished(job) { report(job, state: $0) }
        } catch let error as RendererError {
            Failure.printError(error.description)
            throw ExitCode(Self.printerCodes.contains(error.code) ? Self.unavailable : Failure.exitCode(for: error))
        }
    }

    private func list(_ service: PrintService) throws {
        let printers = try service.printers()
        if json { return try JSONOutput.print(printers) }
        if printers.isEmpty { return print("(no printer)") }
        for printer in printers {
            print("\(printer.isDefault ? "*" : " ") \(printer.name)\(printer.isAcceptingJobs ? "" : " (not accepting jobs)")\(printer.info.flatMap { $0 == printer.name ? nil : "  \($0)" } ?? "")")
        }
    }

    private func report(_ job: PrintJob, state: PrintJobState?) {
        let report = Report(job: job.id, printer: job.printer, documentFormat: job.documentFormat, pageCount: job.pageCount, state: state)
        if json { return JSONOutput.printLine(report) }
        if let state { return print("job \(job.id): \(state.rawValue)") }
        print("job \(job.id) sent to \(job.printer): \(job.pageCount) page\(job.pageCount == 1 ? "" : "s") as \(job.documentFormat)")
    }
}
