import ArgumentParser
import RendererProvider

struct LinksCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "links", abstract: "List each page's links: area (points from the top-left) and target.")

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp
    @OptionGroup var options: PageOptions

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    struct Entry: Encodable {
        var page: String
        var link: Link
    }

    func run() throws {
        try Failure.reporting {
            let document = try global.open(file, needing: [.links])
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            var entries: [Entry] = []
            for index in try options.indices(in: document) {
                for link in try document.links(pageAt: index) {
                    entries.append(Entry(page: numbering.name(index), link: link))
                    if !options.json {
                        print("page \(numbering.name(index)): \(PageNumbering.describe(link.area))  ->  \(numbering.describe(link.destination))")
                    }
                }
            }
            if options.json { try JSONOutput.print(entries) }
        }
    }
}
