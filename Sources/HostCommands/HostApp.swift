import ArgumentParser

/// The root command, `hostapp`: the global options and the subcommands of the program
/// running (``HostProgram/current``).
package struct HostApp: AsyncParsableCommand {
    /// The project's version.
    package static let projectVersion = "0.4.0"

    package static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "hostapp",
            abstract: "Open, inspect and render PDF documents with MuPDF or Poppler, chosen at run time.",
            discussion: """
                Global options (--renderer, --password, --vault, ...) may stand before or after
                the command's name; after it wins. Page numbers are 1-based; ranges look like
                1-3,7, 5- or 2-N (N is the last page).

                Exit codes:
                  0   success
                  1   compare: a page failed the thresholds; manifest check: pages missing, doubled or changed
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
            version: HostProgram.current.version,
            subcommands: HostProgram.current.subcommands)
    }

    /// The global options given before the subcommand's name.
    @OptionGroup package var globalArguments: GlobalArguments

    package init() {}
}
