import GhostscriptRenderer
import HostCommands
import Logging
import MuPDFRenderer
import PopplerRenderer
import RendererProvider
import RendererOCR
import RendererProviderMetadata
import RendererProviderVault

// `hostapp-full`: every hostapp command, with the three engines (MuPDF first, so that `auto`
// prefers it; Ghostscript, which `auto` never chooses, last), the server, sync and the
// vault. `hostapp` hands it every run it cannot serve alone; it may also be run directly.
HostProgram.current = HostProgram(
    subcommands: [BackendsCommand.self] + HostProgram.readingCommands + [
        CompareCommand.self, DiffCommand.self, AnnotationsCommand.self, FormsCommand.self, PagesCommand.self, RedactCommand.self, BookmarksCommand.self, OpenCommand.self, ServeCommand.self, ViewCommand.self, OpenWithCommand.self, PrintCommand.self, SignaturesCommand.self, SignCommand.self, LTVCommand.self, ProtectCommand.self, UnprotectCommand.self, OptimizeCommand.self, OCRCommand.self, ConvertCommand.self, StampCommand.self,
        SyncCommand.self, TokenCommand.self, MCPCommand.self, VaultCommand.self, WorkerCommand.self,
    ],
    version: "hostapp \(HostApp.projectVersion) (\(MuPDFRenderer().engineName) \(MuPDFRenderer().engineVersion), \(PopplerRenderer().engineName) \(PopplerRenderer().engineVersion), "
        + "\(GhostscriptRenderer().engineName) \(GhostscriptRenderer().engineVersion))",
    renderers: { log in
        [MuPDFRenderer(logger: .hostapp(engine: "mupdf", log)), PopplerRenderer(logger: .hostapp(engine: "poppler", log)),
         GhostscriptRenderer(logger: .hostapp(engine: "ghostscript", log))]
    },
    vault: { directory, keyFile in try VaultFileSystem(root: directory, key: VaultKey(contentsOfFile: keyFile)) },
    setMetadata: { session, metadata in try session.setMetadata(metadata) },
    textRecognizer: { languages in try TesseractRecognizer(languages: languages) })
/// ArgumentParser's asynchronous entry point, which awaits the asynchronous commands (serve,
/// sync). Called from top-level code, `HostApp.main()` would resolve to the synchronous one.
func main() async {
    await HostApp.main()
}
await main()
