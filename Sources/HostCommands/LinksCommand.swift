import ArgumentParser
import RendererProvider

struct LinksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "links", abstract: "List each page's links, or add and remove them.",
        subcommands: [List.self, Add.self, Remove.self], defaultSubcommand: List.self)

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List each page's links: area (points from the top-left) and target (the default).")

        @ParentCommand var hostApp: HostApp
        @OptionGroup var options: PageOptions

        @OptionGroup var documentArguments: DocumentArguments

        struct Entry: Encodable {
            var page: String
            var link: Link
        }

        func execute() throws {
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

    struct Add: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a link to a web address or to a page of the document.",
            discussion: "The link has no border. Give --uri, or --to-page with --at for the point to show at the top-left.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page (from 1) the link is on.") var page: Int
        @Option(help: ArgumentHelp("The area that reacts: x,y,w,h in points from the page's top-left.", valueName: "rect")) var rect: String
        @Option(help: "Where the link leads: a URI.") var uri: String?
        @Option(name: .customLong("to-page"), help: "Where the link leads: a page (from 1).") var toPage: Int?
        @Option(help: ArgumentHelp("With --to-page, the point x,y to show at the top-left (default: the whole page).", valueName: "point")) var at: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func validate() throws {
            guard (uri == nil) != (toPage == nil) else { throw ValidationError("give either --uri or --to-page") }
            guard at == nil || toPage != nil else { throw ValidationError("--at goes with --to-page") }
        }

        func execute() throws {
            let area = try GeometryArgument.rectangle(rect, option: "--rect")
            let destination: Destination
            if let uri {
                destination = .uri(uri)
            } else {
                let point = try at.map { try GeometryArgument.point($0, option: "--at") }
                destination = .page(index: toPage! - 1, point: point, view: point == nil ? DestinationView(fit: .fit) : nil)
            }
            try saving.edit(file, with: global) { try $0.addLink(Link(area: area, destination: destination), pageAt: page - 1) }
            print("added a link on page \(page)")
        }
    }

    struct Remove: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove the links whose area is the one given (as `links list` shows it).")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page (from 1) the links are on.") var page: Int
        @Option(help: ArgumentHelp("Their area: x,y,w,h in points from the page's top-left, each within half a point.", valueName: "rect")) var rect: String
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let area = try GeometryArgument.rectangle(rect, option: "--rect")
            let removed = try saving.edit(file, with: global) { try $0.removeLinks(in: area, pageAt: page - 1) }
            print("removed \(removed) link\(removed == 1 ? "" : "s") from page \(page)")
        }
    }
}
