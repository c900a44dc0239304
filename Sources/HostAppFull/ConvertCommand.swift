import ArgumentParser
import HostCommands
import RendererConversion
import RendererProvider

/// `hostapp convert`: pictures made into one PDF, a page each, or an Office or OpenDocument
/// file made into a PDF by LibreOffice.
struct ConvertCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Make a PDF of pictures (JPEG, PNG, TIFF), one page each, or of an Office or OpenDocument file.",
        discussion: """
            Each picture becomes a page the size it has at its resolution (96 dpi when it states \
            none), or with --paper, a page of that paper with the picture fitted within --margin, \
            centred. JPEG data goes into the PDF as it is, without recompression; PNG and TIFF \
            pictures are stored losslessly; a TIFF gives each of its pages. Written by MuPDF. \
            A word-processing file, spreadsheet or presentation (doc, docx, odt, rtf, xls, xlsx, ods, \
            ppt, pptx, odp, and OpenDocument's flat XML) is converted alone by LibreOffice, headless, \
            with no macro run and nothing fetched from the network, within --time-limit seconds.
            """)

    @ParentCommand var hostApp: HostApp
    @Argument(
        help: "The pictures, in page order, or one office document.",
        completion: .file(extensions: ["jpg", "jpeg", "png", "tif", "tiff"] + OfficeConverter.documentExtensions.sorted()))
    var pictures: [String]
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The new PDF.", valueName: "output")) var output: String
    @Option(help: ArgumentHelp("a4, letter or WIDTHxHEIGHT in points; without it, each page is its picture's size.", valueName: "paper"))
    var paper: String?
    @Option(help: ArgumentHelp("Points left at each edge of --paper.", valueName: "points")) var margin: Double = 0
    @OptionGroup var globalArguments: GlobalArguments

    func run() throws {
        try Failure.reporting {
            guard margin >= 0, margin.isFinite else { throw RendererError(.invalidArgument, "--margin takes points, 0 or more") }
            if margin > 0, paper == nil { throw RendererError(.invalidArgument, "--margin needs --paper") }
            let pages: Int
            if pictures.contains(where: OfficeConverter.takes) {
                guard pictures.count == 1, paper == nil else {
                    throw RendererError(.invalidArgument, "an office document is converted alone, without --paper or --margin")
                }
                try OfficeConverter().convert(pictures[0], to: output, timeLimit: global.timeLimit ?? .seconds(86_400))
                pages = try global.registry().open(.file(output), renderer: global.selection).pageCount
            } else {
                let layout = ImagePageLayout(paper: try paper.map(Self.paperSize), margin: margin)
                pages = try global.registry().writePDF(fromPictures: pictures.map { .file($0) }, layout: layout, to: output, renderer: global.selection)
            }
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
