import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct AttachmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attachments", abstract: "List, extract, embed and remove the files a document embeds.",
        discussion: """
            Attachments are numbered from 1 as `list` shows them: the document's own (its /EmbeddedFiles), then those of \
            file-attachment annotations in page order. Extracted files are never run.
            """,
        subcommands: [List.self, Extract.self, Add.self, Remove.self])

    struct List: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the attachments: number, name, size, where, description.")

        @ParentCommand var hostApp: HostApp
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let attachments = try global.open(file, needing: [.attachments]).attachments()
            if json { return try JSONOutput.print(attachments) }
            if attachments.isEmpty { return print("(no attachments)") }
            for (index, attachment) in attachments.enumerated() {
                let place = attachment.pageIndex.map { "annotation on page \($0 + 1)" } ?? "document"
                let size = attachment.size.map { "\($0) bytes" } ?? "size unknown"
                print("\(index + 1): \(attachment.name)  (\(size), \(place))" + (attachment.description.map { "  \($0)" } ?? ""))
            }
        }
    }

    struct Extract: DocumentCommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract", abstract: "Save attachments as files in a folder.",
            discussion: """
                Each is saved under the last component of its name (a name such as ../../x.txt is saved as x.txt), \
                never outside the folder; a name with nothing usable left is refused. An existing file is kept \
                unless --force is given.
                """)

        @ParentCommand var hostApp: HostApp
        @Option(help: ArgumentHelp("The attachment to save, by its number in list. Repeatable; default: all.", valueName: "n")) var number: [Int] = []
        @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The folder to save into (made if missing).", valueName: "folder"))
        var output = "."
        @Flag(help: "Replace files that exist.") var force = false
        @OptionGroup var documentArguments: DocumentArguments

        func execute() throws {
            let document = try global.open(file, needing: [.attachments])
            let attachments = try document.attachments()
            let chosen = number.isEmpty ? Array(attachments.indices) : number.map { $0 - 1 }
            for index in chosen where !attachments.indices.contains(index) {
                throw RendererError(.invalidArgument, "attachment \(index + 1) does not exist; the document has \(attachments.count)")
            }
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for index in chosen {
                guard let name = attachments[index].safeFileName else {
                    throw RendererError(.invalidArgument, "attachment \(index + 1)'s name leaves no file name to save it as")
                }
                let path = URL(fileURLWithPath: output).appendingPathComponent(name).path
                if !force, FileManager.default.fileExists(atPath: path) {
                    throw RendererError(.conflict, "\(path) exists; give --force to replace it")
                }
                try AtomicFile.write(document.attachmentContents(at: index), to: path)
                print("saved \(index + 1) as \(path)")
            }
        }
    }

    struct Add: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Embed a file in the document (MuPDF).",
            discussion: "The file is embedded with its name, modification time and an MD5 checksum, and saved as other edits are.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The file to embed.", completion: .file()) var attachment: String
        @Option(help: "The name to embed it as (default: its file name).") var name: String?
        @Option(help: "What the file is, in words.") var description: String?
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            let url = URL(fileURLWithPath: attachment)
            guard let contents = FileManager.default.contents(atPath: attachment) else {
                throw RendererError(.fileNotFound, "cannot read \(attachment)")
            }
            let modified = (try? FileManager.default.attributesOfItem(atPath: attachment))?[.modificationDate] as? Date
            let embedded = name ?? url.lastPathComponent
            try saving.edit(file, with: global) {
                try $0.addAttachment(name: embedded, contents: contents, description: description, modificationDate: modified)
            }
            print("embedded \(embedded) (\(contents.count) bytes)")
        }
    }

    struct Remove: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove one of the document's own attachments (MuPDF).")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"])) var file: String
        @Argument(help: "The attachment's number in list.") var number: Int
        @OptionGroup var saving: SaveOptions
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            try saving.edit(file, with: global) { try $0.removeAttachment(at: number - 1) }
            print("removed attachment \(number)")
        }
    }
}
