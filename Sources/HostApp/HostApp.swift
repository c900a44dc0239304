import ArgumentParser

@main
struct HostApp: ParsableCommand {
    /// Runs hostapp. Global options may stand before the subcommand's name
    /// (`hostapp --backend poppler info x.pdf`); they are moved after it, where the
    /// subcommand's option group reads them.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let names = Set(configuration.subcommands.compactMap { $0.configuration.commandName })
        if let position = arguments.firstIndex(where: names.contains), position > 0 {
            let leading = arguments[..<position]
            arguments.removeSubrange(..<position)
            // After the subcommand's name, and after a nested subcommand's name (`annotations list`).
            let command = configuration.subcommands.first { $0.configuration.commandName == arguments[0] }
            let nested = Set(command?.configuration.subcommands.map { $0._commandName } ?? [])
            let insertion = arguments.count > 1 && nested.contains(arguments[1]) ? 2 : 1
            arguments.insert(contentsOf: leading, at: insertion)
        }
        main(arguments)
    }

    static let configuration = CommandConfiguration(
        commandName: "hostapp",
        abstract: "Open, inspect and render PDF documents with MuPDF or Poppler, chosen at run time.",
        discussion: """
            Page numbers on the command line are 1-based; ranges look like 1-3,7 or 5-.

            Exit codes:
              0   success
              1   compare: a page failed the thresholds
              64  usage error (bad option, page out of range, resolution, size or time past a limit)
              65  document error (not a PDF, damaged, password or key required or wrong, tampered, expired)
              70  the engine crashed or was stopped (with --isolate)
              74  I/O error (file missing or unreadable, output not writable)
              75  open: someone else changed the original meanwhile; nothing was overwritten
              77  not permitted by the document settings (--settings) or the PDF's permissions
              130 interrupted (Ctrl-C or SIGTERM)

            Commands that work through pages go on past a page that fails on its own
            (damaged, past a limit, the engine failing on it) and end with that page's code.
            """,
        subcommands: [
            BackendsCommand.self, InfoCommand.self, RenderCommand.self, TextCommand.self, SearchCommand.self,
            OutlineCommand.self, LinksCommand.self, CompareCommand.self, AnnotationsCommand.self, BookmarksCommand.self,
            OpenCommand.self, VaultCommand.self, WorkerCommand.self,
        ]
    )
}
