import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererStamps

/// `hostapp stamp`: watermarks, headers, footers and Bates numbers written onto pages.
struct StampCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "stamp", abstract: "Write a watermark, a header, a footer or Bates numbers onto pages, as text.",
        discussion: """
            Each stamp is written into the page's content as text in an embedded font, so that text tools find it: \
            --text across the middle of the page (turned, grey, see-through), --header and --footer in the margins, \
            --bates numbers at the bottom right. Texts may hold {page}, {pages}, {date} and {bates}, and several lines (a \
            newline, or a backslash followed by n). The font is --font, or the installed font that draws every character (any script fontconfig finds \
            a font for: Chinese, Arabic…). Nothing is written unless every stamp can be drawn.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(help: ArgumentHelp("A watermark across the middle of each page.", valueName: "text")) var text: String?
    @Option(help: ArgumentHelp("Running text at the top of each page, such as \"{page} of {pages}\".", valueName: "text")) var header: String?
    @Option(help: ArgumentHelp("Running text at the bottom of each page.", valueName: "text")) var footer: String?
    @Option(help: ArgumentHelp("Bates numbers with this prefix at the bottom right of each page.", valueName: "prefix")) var bates: String?
    @Option(help: "The first Bates number.") var batesStart = 1
    @Option(help: "How many digits a Bates number has at least.") var batesDigits = 6
    @Option(help: "Pages, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).") var pages: String?
    @Option(help: ArgumentHelp("A TrueType font file to draw in (default: an installed font that draws the text).", valueName: "path"))
    var font: String?
    @Option(help: ArgumentHelp("The font size in points (default: as large as fits for --text, 10 otherwise).", valueName: "points"))
    var fontSize: Double?
    @Option(help: ArgumentHelp("The text's colour (default: grey for --text, black otherwise).", valueName: "#RRGGBB")) var color: String?
    @Option(help: ArgumentHelp("How opaque the text is, 0 to 1 (default: 0.3 for --text, 1 otherwise).", valueName: "opacity"))
    var opacity: Double?
    @Option(help: ArgumentHelp("How far --text is turned anticlockwise, in degrees.", valueName: "degrees")) var rotation = 45.0
    @Option(help: ArgumentHelp("Where --header and --footer stand: left, center or right.", valueName: "alignment"))
    var align: TextStamp.Alignment = .center
    @Option(help: ArgumentHelp("How far headers, footers and Bates numbers stand from the edges, in points.", valueName: "points"))
    var margin = 36.0
    @Flag(help: "Draw the stamps behind the page's content instead of over it.") var behind = false
    @Flag(help: "Write --text as a watermark annotation instead of page content.") var asAnnotation = false
    @OptionGroup var saving: SaveOptions
    @OptionGroup var documentArguments: DocumentArguments

    func validate() throws {
        guard text != nil || header != nil || footer != nil || bates != nil else {
            throw ValidationError("give at least one of --text, --header, --footer and --bates")
        }
        if behind, asAnnotation { throw ValidationError("--behind draws into the page and --as-annotation beside it: give one of them") }
    }

    func execute() throws {
        let written = try saving.edit(file, with: global) { session in
            try session.check(.editing)
            var options = StampOptions()
            (options.text, options.header, options.footer) = (text.map(Self.lines), header.map(Self.lines), footer.map(Self.lines))
            options.bates = bates.map { StampOptions.Bates(prefix: $0, start: batesStart, digits: batesDigits) }
            options.pages = try pages.map { try PageSelection(text: $0).indices(pageCount: session.pageCount) }
            (options.fontPath, options.fontSize, options.color, options.opacity) = (font, fontSize, color, opacity)
            (options.rotation, options.alignment, options.margin) = (rotation, align, margin)
            options.placement = asAnnotation ? .annotation : behind ? .behind : nil
            let stamps = try options.stamps()
            try session.addTextStamps(stamps)
            return (stamps.count, try options.pages?.count ?? session.pageCount)
        }
        Failure.printNote("stamped \(written.1) page\(written.1 == 1 ? "" : "s") with \(written.0) stamp\(written.0 == 1 ? "" : "s")")
    }

    /// `text` with `\n` as a new line, as a shell passes it.
    private static func lines(_ text: String) -> String { text.replacingOccurrences(of: "\\n", with: "\n") }
}

extension TextStamp.Alignment: ExpressibleByArgument {}
