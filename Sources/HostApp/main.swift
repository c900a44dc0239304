import Foundation
import HostCommands
import MuPDFRenderer

// `hostapp`: the reading commands (info, render, text, search, outline, links, signatures, manifest)
// run here when MuPDF is named (--backend mupdf or HOSTAPP_BACKEND=mupdf), in an executable
// that links neither Poppler's libraries nor the server stack, so that the run starts and
// stays as small as `mutool`'s. Every other run (another backend or `auto`, --isolate, a
// vault, any other command, help, version, a usage error) is handed, before anything is
// read or written, to `hostapp-full` beside this executable, which replaces this process
// with the same arguments: same process, same exit codes, same output.
HostProgram.current = HostProgram(
    subcommands: HostProgram.readingCommands, version: "",
    renderers: { logger in [MuPDFRenderer(logger: logger.tagged(engine: "mupdf"))] }, vault: nil)

let arguments = Array(CommandLine.arguments.dropFirst())
guard var command = try? HostApp.parseAsRoot(arguments), HostApp.servesAlone(command) else {
    HostApp.handOff(arguments, to: "hostapp-full")
}
do {
    try command.run()
} catch {
    HostApp.exit(withError: error)
}
