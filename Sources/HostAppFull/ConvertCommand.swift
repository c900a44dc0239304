import ArgumentParser
import HostCommands
import RendererProvider

/// `hostapp convert`: pictures made into one PDF, a page each.
struct ConvertCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert", abstract: "Make a PDF of pictures (JPEG, PNG, TIFF), one page each.",
        discussion: """
            Each picture becomes a page the size it has at its resolution (96 dpi when it states \
            none), or with --paper, a page of that paper with the picture fitted within --margin, \
            centred. JPEG data goes into the PDF as it is, without recompression; PNG and TIFF \
            pictures are stored losslessly; a TIFF gives each of its pages. Written by MuPDF.
            """)

    @ParentCommand var hostApp: HostApp
    @Argument(help: "The pictures, in page order.", completion: .file(extensions: ["jpg", "jpeg", "png", "tif", "tiff"])) var pictures: [String]
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The new PDF.", valueName: "output")) var output: String
    @Option(help: ArgumentHelp("a4, letter or WIDTHxHEIGHT in points; without it, each page is its picture's size.", valueName: "paper"))
    var paper: String?
    @Option(help: ArgumentHelp("Points left at each edge of --paper.", valueName: "points")) var margin: Double = 0
    @OptionGroup var globalArguments: GlobalArguments

    func run() throws {
        try Failure.reporting {
            guard margin >= 0, margin.isFinite else { throw RendererError(.invalidArgument, "--margin takes points, 0 or more") }
            if margin > 0, paper == nil { throw RendererError(.invalidArgument, "--margin needs --paper") }
            let layout = ImagePageLayout(paper: try paper.map(Self.paperSize), margin: margin)
            let pages = try global.registry().writePDF(fromPictures: pictures.map { .file($0) }, layout: layout, to: output, renderer: global.selection)
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
