#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostCommands
import MuPDFRenderer

// `hostapp`: the reading commands (info, render, text, search, outline, links, attachments, manifest)
// run here with MuPDF (--backend mupdf, or `auto`, the default, while MuPDF opens the file
// without repairing it), in an executable that links neither Poppler's libraries nor the
// server stack, so that the run starts and stays as small as `mutool`'s. Every other run
// (another backend, --isolate, a vault, any other command, help, version, a usage error) is
// handed, before anything is read or written, to `hostapp-full` beside this executable,
// which replaces this process with the same arguments: same process, same exit codes, same
// output. So is an `auto` run whose file MuPDF does not open whole (damaged, repaired, no
// pages, a password wanted), once MuPDF has tried, so that Poppler gets its turn there.
HostProgram.current = HostProgram(
    subcommands: HostProgram.readingCommands, version: "",
    renderers: { log in [MuPDFRenderer(logger: .hostapp(engine: "mupdf", log))] }, vault: nil,
    partialAuto: HostProgram.PartialAuto(
        renderers: { log in [MuPDFRenderer(logger: .hostapp(engine: "mupdf", log), opensRepairedFiles: false)] },
        executable: "hostapp-full"))

let arguments = Array(CommandLine.arguments.dropFirst())
if let thumbnail = ThumbnailerCall(arguments), HostApp.servesAlone(GlobalOptions()) {
    thumbnail.run()
}
if HostApp.handsOffUnparsed(arguments) {
    HostApp.handOff(arguments, to: "hostapp-full")
}
guard var command = try? HostApp.parseAsRoot(arguments), HostApp.servesAlone(command) else {
    HostApp.handOff(arguments, to: "hostapp-full")
}
do {
    try command.run()
} catch {
    HostApp.exit(withError: error)
}
