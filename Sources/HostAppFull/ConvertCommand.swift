import ArgumentParser
import Foundation
import HostCommands
import RendererConversion
import RendererProvider

/// `hostapp convert`: pictures made into one PDF, a page each, or office documents made into
/// PDFs by LibreOffice and HTML by Chromium.
struct ConvertCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Make a PDF of pictures (JPEG, PNG, TIFF), one page each, or of office and HTML documents.",
        discussion: """
            Each picture becomes a page the size it has at its resolution (96 dpi when it states \
            none), or with --paper, a page of that paper with the picture fitted within --margin, \
            centred. JPEG data goes into the PDF as it is, without recompression; PNG and TIFF \
            pictures are stored losslessly; a TIFF gives each of its pages. Written by MuPDF. \
            A word-processing file, spreadsheet or presentation (doc, docx, odt, rtf, xls, xlsx, ods, \
            ppt, pptx, odp, and OpenDocument's flat XML) is converted by LibreOffice, headless, with \
            no macro run and nothing fetched from the network, within --time-limit seconds; several \
            are converted by the same LibreOffice, each into a PDF of its name in the folder -o names. \
            An HTML document (html, htm, xhtml) is printed by headless Chromium with no network: its \
            styles and pictures inline, as nothing is fetched.
            """)

    @ParentCommand var hostApp: HostApp
    @Argument(
        help: "The pictures, in page order, or office and HTML documents.",
        completion: .file(extensions: ["jpg", "jpeg", "png", "tif", "tiff"] + OfficeConverter.documentExtensions.sorted() + HTMLConverter.documentExtensions.sorted()))
    var pictures: [String]
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The new PDF (for several office documents, a folder).", valueName: "output"))
    var output: String
    @Option(help: ArgumentHelp("a4, letter or WIDTHxHEIGHT in points; without it, each page is its picture's size.", valueName: "paper"))
    var paper: String?
    @Option(help: ArgumentHelp("Points left at each edge of --paper.", valueName: "points")) var margin: Double = 0
    @OptionGroup var globalArguments: GlobalArguments

    func execute() throws {
        guard margin >= 0, margin.isFinite else { throw RendererError(.invalidArgument, "--margin takes points, 0 or more") }
        if margin > 0, paper == nil { throw RendererError(.invalidArgument, "--margin needs --paper") }
        if pictures.contains(where: Self.isDocument) {
            guard pictures.allSatisfy(Self.isDocument), paper == nil else {
                throw RendererError(.invalidArgument, "office and HTML documents are converted without pictures, --paper or --margin")
            }
            return try convertDocuments()
        }
        let layout = ImagePageLayout(paper: try paper.map(Self.paperSize), margin: margin)
        let pages = try global.registry().writePDF(fromPictures: pictures.map { .file($0) }, layout: layout, to: output, renderer: global.selection)
        print("wrote \(pages) page\(pages == 1 ? "" : "s") to \(output)")
    }

    /// Whether `path` is an office or HTML document, by its extension.
    private static func isDocument(_ path: String) -> Bool { OfficeConverter.takes(path) || HTMLConverter.takes(path) }

    /// The office and HTML documents given: one into the PDF `-o` names, several each into a
    /// PDF of its name in the folder `-o` names; office documents by one LibreOffice kept warm
    /// from one to the next, HTML by Chromium.
    private func convertDocuments() throws {
        let converter = OfficeConverter()
        let timeLimit = global.timeLimit ?? .seconds(86_400)
        var outputs = [output]
        if pictures.count > 1 {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            outputs = pictures.map { URL(fileURLWithPath: output).appendingPathComponent(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + ".pdf").path }
            guard Set(outputs).count == outputs.count else { throw RendererError(.invalidArgument, "two documents have the same name: their PDFs would meet") }
        }
        for (input, output) in zip(pictures, outputs) {
            if HTMLConverter.takes(input) {
                try HTMLConverter().convert(input, to: output, timeLimit: timeLimit)
            } else {
                try converter.convert(input, to: output, timeLimit: timeLimit)
            }
            let pages = try global.registry().open(.file(output), renderer: global.selection).pageCount
            print("wrote \(pages) page\(pages == 1 ? "" : "s") to \(output)")
        }
    }

    /// A named paper or WIDTHxHEIGHT in points.
    static func paperSize(_ text: String) throws -> PageSize {
        switch text.lowercased() {
        case "a4": PageSize(width: 595.276, height: 841.89)
        case "letter": PageSize(width: 612, height: 792)
        default: try PageSize(argument: text, option: "--paper")
        }
    }
}
