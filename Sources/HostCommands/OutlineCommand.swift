import ArgumentParser
import RendererProvider

struct OutlineCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "outline", abstract: "Print the document's outline as an indented tree.")

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Flag(help: "Show page labels instead of page numbers.")
    var labels = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        try Failure.reporting {
            let document = try global.open(file, needing: [.outline])
            let outline = try document.outline()
            if json { return try JSONOutput.print(outline) }
            let numbering = try PageNumbering(document: document, useLabels: labels)
            func show(_ items: [OutlineItem], depth: Int) {
                for item in items {
                    let marker = item.children.isEmpty ? "-" : (item.isOpen ? "v" : ">")
                    print(String(repeating: "  ", count: depth) + "\(marker) \(item.title)  ->  \(numbering.describe(item.destination))")
                    show(item.children, depth: depth + 1)
                }
            }
            if outline.isEmpty { print("(no outline)") }
            show(outline, depth: 0)
        }
    }
}
