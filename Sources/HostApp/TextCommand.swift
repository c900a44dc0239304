import ArgumentParser
import RendererProvider

struct TextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text", abstract: "Print the text of pages in reading order (a form feed between pages), or words with boxes as JSON.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: PageOptions

    @Argument(help: "The PDF file.")
    var file: String

    struct PageReport: Encodable {
        struct Word: Encodable {
            var text: String
            var x, y, width, height: Double
        }
        var page: String
        var text: String
        var words: [Word]
    }

    func run() throws {
        try Failure.reporting {
            let document = try global.open(file, needing: [.text])
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            let indices = try options.indices(in: document)
            if options.json {
                let pages = try indices.map { index in
                    let words = try document.textPage(pageAt: index).words.map {
                        PageReport.Word(text: $0.text, x: $0.bounds.minX, y: $0.bounds.minY, width: $0.bounds.size.width, height: $0.bounds.size.height)
                    }
                    return PageReport(page: numbering.name(index), text: try document.text(pageAt: index), words: words)
                }
                return try JSONOutput.print(pages)
            }
            for (position, index) in indices.enumerated() {
                if position > 0 { print("\u{0C}", terminator: "") }
                let text = try document.text(pageAt: index)
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            }
        }
    }
}
