import ArgumentParser

@main
struct HostApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostapp",
        abstract: "Open, inspect and render PDF documents with MuPDF or Poppler, chosen at run time.",
        discussion: """
            Page numbers on the command line are 1-based; ranges look like 1-3,7 or 5-.

            Exit codes:
              0   success
              64  usage error (bad option, page out of range, resolution or size past a limit)
              65  document error (not a PDF, damaged, password required or wrong)
              74  I/O error (file missing or unreadable, output not writable)
            """,
        subcommands: [BackendsCommand.self, InfoCommand.self, RenderCommand.self]
    )
}
