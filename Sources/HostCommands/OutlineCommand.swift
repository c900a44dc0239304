import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct OutlineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outline", abstract: "Print the document's outline, or write a new one.",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print the document's outline as an indented tree (the default).")

        @ParentCommand var hostApp: HostApp

        @Flag(help: "Show page labels instead of page numbers.")
        var labels = false

        @Flag(help: "Print JSON (what `outline set` reads).")
        var json = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
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

    struct Set: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Replace the document's outline with the one a JSON file gives.",
            discussion: """
                The file holds a JSON array of items as `outline show --json` prints them: each with a title and, \
                optionally, a destination ({"kind": "page", "index": 0, "point": {"x": 72, "y": 72}} with index from 0, \
                or {"kind": "uri", "uri": "https://…"}), isOpen, children, color ({"red": 1, "green": 0, "blue": 0, \
                "alpha": 1}), isBold and isItalic. An empty array removes the outline. Nothing is written when an item \
                is refused (a page the document lacks, coordinates that are not numbers, too deep or too many items).
                """)

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The JSON file with the outline.", completion: .file(extensions: ["json"])) var outline: String
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        /// The largest outline file read, in bytes.
        static let maximumFileSize = 64 << 20

        func execute() throws {
            let items = try DataFiles.decode([OutlineItem].self, from: outline, maximumSize: Self.maximumFileSize, what: "outline")
            let report = try saving.edit(file, with: global) { try $0.setOutline(items) }
            let count = OutlineItem.count(items)
            print("outline written: \(count) item\(count == 1 ? "" : "s")")
            for line in report.lines { print(line) }
        }
    }
}
