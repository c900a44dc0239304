import ArgumentParser
import Foundation
import HostCommands
import RendererProvider

struct PagesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pages", abstract: "Insert, delete, move and rotate pages, merge documents and extract pages into a new one.",
        discussion: """
            Page numbers count from 1. Links, outline items and named destinations that would point to a \
            page no longer in the document are dropped, and each command says how many. Changes are saved \
            atomically to the file -o names, or over the input with --in-place. MuPDF only.
            """,
        subcommands: [Insert.self, Delete.self, Move.self, Rotate.self, Merge.self, Split.self])

    /// Prints what an edit dropped, one line each, on standard error.
    static func report(_ report: PageEditReport) {
        for line in report.lines { Failure.printNote(line) }
    }

    struct Insert: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "insert", abstract: "Insert blank pages.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page the new pages come before (default: after the last page).") var before: Int?
        @Option(help: "How many blank pages.") var count = 1
        @Option(help: ArgumentHelp("The size in points, such as 595x842 (default: the size of the page before).", valueName: "WxH"))
        var size: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            guard (1...1000).contains(count) else { throw RendererError(.invalidArgument, "--count takes 1 to 1000 pages, not \(count)") }
            try saving.edit(file, with: global) { session in
                let pageCount = try session.pageCount
                let at = (before ?? pageCount + 1) - 1
                let pageSize = try size.map { try PageSize(argument: $0, option: "--size") } ?? session.pageInfo(pageAt: max(0, min(at, pageCount) - 1)).size
                for offset in 0..<count { try session.insertBlankPage(at: at + offset, size: pageSize) }
            }
            print("inserted \(count) page\(count == 1 ? "" : "s")")
        }
    }

    struct Delete: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete pages.")

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("The pages to delete, such as 2-4,7.", valueName: "pages")) var pages: String
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let (count, dropped) = try saving.edit(file, with: global) { session in
                let indices = try PageSelection(text: pages).indices(pageCount: session.pageCount)
                return (indices.count, try session.deletePages(indices))
            }
            PagesCommand.report(dropped)
            print("deleted \(count) page\(count == 1 ? "" : "s")")
        }
    }

    struct Move: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a page to another place.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page to move.") var page: Int
        @Option(help: "The number it has afterwards.") var to: Int
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            try saving.edit(file, with: global) { try $0.movePage(from: page - 1, to: to - 1) }
            print("moved page \(page) to \(to)")
        }
    }

    struct Rotate: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate", abstract: "Turn pages: set or change their /Rotate.",
            discussion: "--by turns from the rotation each page has (negative: anticlockwise); --to sets it.")

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("The pages to turn (default: all).", valueName: "pages")) var pages = "1-N"
        @Option(help: "Degrees to turn by, a multiple of 90 (--by=-90 turns anticlockwise).") var by: Int?
        @Option(help: "The rotation to set: 0, 90, 180 or 270.") var to: Int?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var documentArguments: DocumentArguments

        func validate() throws {
            if (by == nil) == (to == nil) { throw ValidationError("give --by or --to") }
        }

        func execute() throws {
            let count = try saving.edit(file, with: global) { session in
                let indices = try PageSelection(text: pages).indices(pageCount: session.pageCount)
                for index in indices {
                    if let by {
                        try session.rotatePage(at: index, by: by)
                    } else if let to {
                        guard let rotation = PageRotation(degrees: to), rotation.degrees == to else {
                            throw RendererError(.invalidArgument, "--to takes 0, 90, 180 or 270, not \(to)")
                        }
                        try session.rotatePage(at: index, to: rotation)
                    }
                }
                return indices.count
            }
            print("rotated \(count) page\(count == 1 ? "" : "s")")
        }
    }

    struct Merge: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Copy the pages of other PDFs into the document.",
            discussion: """
                Each source's pages come with their annotations (not form widgets) and the outline items that go \
                to them, added at the end of the outline. Sources are read, never written.
                """)

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file to copy into.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The PDFs to copy from, in order.", completion: .file(extensions: ["pdf"])) var sources: [String]
        @Option(help: ArgumentHelp("The pages of the one source to copy, such as 1-3 (default: all).", valueName: "pages")) var pages: String?
        @Option(help: "The page the copies come before (default: after the last page).") var before: Int?
        @Option(help: ArgumentHelp("The sources' password.", valueName: "password")) var sourcePassword: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func validate() throws {
            if sources.isEmpty { throw ValidationError("name at least one PDF to copy from") }
            if pages != nil, sources.count > 1 { throw ValidationError("--pages works with one source") }
        }

        func execute() throws {
            let (count, dropped) = try saving.edit(file, with: global) { session in
                let start = try session.pageCount
                var at = (before ?? start + 1) - 1
                var dropped = PageEditReport()
                for source in sources {
                    let before = try session.pageCount
                    let chosen = try pages.map { selection in
                        try PageSelection(text: selection).indices(pageCount: global.registry().open(.file(source), password: sourcePassword).pageCount)
                    }
                    dropped = dropped + (try session.insertPages(from: .file(source), password: sourcePassword, pages: chosen, at: at))
                    at += try session.pageCount - before
                }
                return (try session.pageCount - start, dropped)
            }
            PagesCommand.report(dropped)
            print("copied \(count) page\(count == 1 ? "" : "s")")
        }
    }

    struct Split: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "split", abstract: "Write pages into a new PDF, leaving the document as it is.",
            discussion: """
                The new PDF holds the pages in the order given, with the document's metadata, encryption, and \
                the outline items, links, named destinations and form fields of those pages.
                """)

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("The pages to extract, such as 3-5.", valueName: "pages")) var pages: String
        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The new PDF.", valueName: "output")) var output: String
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let session = try global.openSession(file)
            defer { session.close() }
            let indices = try PageSelection(text: pages).indices(pageCount: session.pageCount)
            PagesCommand.report(try session.extractPages(indices, to: output))
            print("wrote \(indices.count) page\(indices.count == 1 ? "" : "s") to \(output)")
        }
    }
}
