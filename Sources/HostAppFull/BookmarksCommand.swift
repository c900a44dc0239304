import ArgumentParser
import HostCommands
import Foundation
import RendererProvider
import RendererProviderStore

struct BookmarksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmarks",
        abstract: "Keep your own bookmarks and the last page viewed, per document.",
        discussion: """
            Bookmarks are kept in $XDG_DATA_HOME/hostapp/bookmarks.sqlite (default
            ~/.local/share/hostapp), by the document's fingerprint: its PDF /ID, else a hash of
            its bytes. A renamed or copied file keeps its bookmarks.
            """,
        subcommands: [Add.self, List.self, Remove.self, Last.self])

    /// The store and the fingerprint of `file`.
    static func open(_ file: String, global: GlobalOptions) throws -> (store: SQLiteStateStore, fingerprint: DocumentFingerprint, document: Document) {
        let document = try global.open(file, needing: [.metadata])
        let fingerprint = try DocumentFingerprint.of(document.info(), path: file, in: try global.fileSystem())
        return (try SQLiteStateStore(path: SQLiteStateStore.defaultPath(application: "hostapp")), fingerprint, document)
    }

    struct Add: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Bookmark a page and print the bookmark's id.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page, 1-based.") var page: Int
        @Option(help: "The bookmark's title (default: the page's label).") var title: String?
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let (store, fingerprint, document) = try BookmarksCommand.open(file, global: global)
            let info = try document.pageInfo(pageAt: page - 1)
            let added = try store.add(Bookmark(pageIndex: info.index, title: title ?? "Page \(info.label)"), for: fingerprint)
            print(added.id)
        }
    }

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the document's bookmarks and the last page viewed.")

        @ParentCommand var hostApp: HostApp
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var documentArguments: DocumentArguments

        struct Listing: Encodable {
            var fingerprint: DocumentFingerprint
            var bookmarks: [Bookmark]
            var lastViewedPage: Int?
        }

        func execute() throws {
            let (store, fingerprint, _) = try BookmarksCommand.open(file, global: global)
            let bookmarks = try store.bookmarks(for: fingerprint)
            let last = try store.lastViewedPage(for: fingerprint)
            if json {
                try JSONOutput.print(Listing(fingerprint: fingerprint, bookmarks: bookmarks, lastViewedPage: last.map { $0 + 1 }))
                return
            }
            for bookmark in bookmarks {
                print("\(bookmark.id)  page \(bookmark.pageIndex + 1)  \(bookmark.title)  \(bookmark.creationDate.formatted(.iso8601))")
            }
            if let last { print("last viewed: page \(last + 1)") }
        }
    }

    struct Remove: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a bookmark by its id.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The bookmark's id, as add and list print it.") var id: String
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            let (store, fingerprint, _) = try BookmarksCommand.open(file, global: global)
            try store.removeBookmark(id: id, for: fingerprint)
        }
    }

    struct Last: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "last", abstract: "Print the last page viewed, or record it with --page.")

        @ParentCommand var hostApp: HostApp
        @Option(help: "The page to record, 1-based.") var page: Int?
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let (store, fingerprint, document) = try BookmarksCommand.open(file, global: global)
            if let page {
                try store.setLastViewedPage(try document.pageInfo(pageAt: page - 1).index, for: fingerprint)
            } else if let last = try store.lastViewedPage(for: fingerprint) {
                print(last + 1)
            }
        }
    }
}
