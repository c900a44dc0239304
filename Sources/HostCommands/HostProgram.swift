import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import RendererProvider

#if canImport(Glibc)
import Glibc
#endif

/// What the executable running ``HostApp`` links: its subcommands, its renderers and the
/// vault. Both `hostapp` and `hostapp-full` are built from these commands; each sets
/// ``current`` once, first thing, before any parsing.
package struct HostProgram {
    /// The subcommands this executable has, in the order help lists them. A run that prints
    /// the description manual pages are written from (`--experimental-dump-help`, which
    /// ArgumentParser's `generate-manual` tool reads, and which would list hidden commands
    /// such as `worker` too) gets only those help shows.
    package var subcommands: [any ParsableCommand.Type] {
        let all = listSubcommands()
        guard CommandLine.arguments.dropFirst().first == "--experimental-dump-help" else { return all }
        return all.filter { $0.configuration.shouldDisplay }
    }
    /// Lists them when asked: the list instantiates each command's type, which a run that
    /// parses no command (``ThumbnailerCall``) does not need.
    private let listSubcommands: () -> [any ParsableCommand.Type]
    /// What `--version` prints.
    package var version: String
    /// The renderers this executable links, in the order `auto` tries them, each logging
    /// to standard error as the settings given say (``Logging/Logger/hostapp(_:engine:_:)``).
    package var renderers: (LogSettings) -> [any Renderer]
    /// Opens the vault `directory` with the key in `keyFile`; nil when the executable does
    /// not link the vault.
    package var vault: ((_ directory: String, _ keyFile: String) throws -> any FileSystem)?
    /// Sets a session's metadata in its Info dictionary and XMP packet; nil when the
    /// executable does not link the XMP writer (`hostapp info --set` then goes to hostapp-full).
    package var setMetadata: ((ReadingSession, DocumentMetadata) throws -> Void)?
    /// A text recognizer of the languages given (Tesseract's names joined by `+`); nil when
    /// the executable links none (`--ocr` then goes to hostapp-full).
    package var textRecognizer: ((_ languages: String) throws -> any TextRecognizer)?

    /// For a program that links only the first of the engines `auto` tries: the renderers
    /// it serves `auto` with, and the executable beside it that links them all, which a run
    /// is handed to when those renderers do not open the file. Nil in a program that links
    /// every engine.
    package var partialAuto: PartialAuto?

    /// How a program that links fewer engines than `auto` tries serves it.
    package struct PartialAuto {
        /// The renderers `auto` opens with here, each logging to standard error as the settings given say.
        package var renderers: (LogSettings) -> [any Renderer]
        /// The executable, beside this one, that links every engine.
        package var executable: String

        package init(renderers: @escaping (LogSettings) -> [any Renderer], executable: String) {
            self.renderers = renderers
            self.executable = executable
        }
    }

    package init(
        subcommands: @escaping @autoclosure () -> [any ParsableCommand.Type], version: String, renderers: @escaping (LogSettings) -> [any Renderer],
        vault: ((String, String) throws -> any FileSystem)?, setMetadata: ((ReadingSession, DocumentMetadata) throws -> Void)? = nil,
        textRecognizer: ((String) throws -> any TextRecognizer)? = nil, partialAuto: PartialAuto? = nil
    ) {
        self.listSubcommands = subcommands
        self.version = version
        self.renderers = renderers
        self.vault = vault
        self.setMetadata = setMetadata
        self.textRecognizer = textRecognizer
        self.partialAuto = partialAuto
    }

    /// The program running. Set once by `main` before ``HostApp`` parses anything, and only
    /// read after that, so no two threads ever write or race on it.
    nonisolated(unsafe) package static var current = HostProgram(subcommands: [], version: "", renderers: { _ in [] }, vault: nil)

    /// The commands that need nothing beyond the provider API, an engine and a page
    /// manifest: those `hostapp` runs itself with MuPDF.
    package static let readingCommands: [any ParsableCommand.Type] = [
        InfoCommand.self, RenderCommand.self, TextCommand.self, SearchCommand.self, OutlineCommand.self, LinksCommand.self, FontsCommand.self, ImagesCommand.self, AttachmentsCommand.self, ThumbnailCommand.self, IconsCommand.self,
        ManifestCommand.self,
    ]
}

extension HostApp {
    /// Whether this program serves `command` alone: one of its own subcommands, with a
    /// backend it links named (or `auto`, when it serves `auto` in part: see
    /// ``HostProgram/partialAuto``), in this process (no --isolate, whose engine process is
    /// `worker`), on the local disk unless it links the vault, and writing metadata only if
    /// it links the XMP writer.
    package static func servesAlone(_ command: any ParsableCommand) -> Bool {
        guard let subcommand = command as? any HostSubcommand, HostProgram.current.subcommands.contains(where: { contains($0, type(of: command)) })
        else { return false }
        if (command as? InfoCommand)?.writesMetadata == true, HostProgram.current.setMetadata == nil { return false }
        return servesAlone(subcommand.global)
    }

    /// Whether `command` is `group` or one of its subcommands, at any depth.
    private static func contains(_ group: any ParsableCommand.Type, _ command: any ParsableCommand.Type) -> Bool {
        ObjectIdentifier(group) == ObjectIdentifier(command) || group.configuration.subcommands.contains { contains($0, command) }
    }

    /// Whether this program serves a run with the global options `global`: a backend it
    /// links, in this process, on a file system it links, with text recognition if asked
    /// for and linked.
    package static func servesAlone(_ global: GlobalOptions) -> Bool {
        links(global.selection) && !global.isolate && (HostProgram.current.vault != nil || (global.vault == nil && global.keyFile == nil))
            && (global.ocrPages == nil || HostProgram.current.textRecognizer != nil)
    }

    /// Whether this program serves `selection` itself: a renderer it links, or `auto` when
    /// it serves `auto` in part.
    private static func links(_ selection: RendererSelection) -> Bool {
        switch selection {
        case .auto: HostProgram.current.partialAuto != nil
        case .id(let id): HostProgram.current.renderers(GlobalOptions.defaults.log).contains { $0.id == id }
        }
    }

    /// Whether `arguments`, seen before they are parsed, certainly ask for what this program
    /// does not serve alone: `--isolate`, a renderer it does not link (by `--renderer`,
    /// `--backend` or the environment), or no word that names one of its subcommands. Parsing is most of
    /// a short run's time in a debug build (ArgumentParser then checks every command it
    /// meets), and a run handed off is parsed again there. False is no answer:
    /// ``servesAlone(_:)`` decides after the parse. A run handed off needlessly gives the
    /// same result.
    package static func handsOffUnparsed(_ arguments: [String]) -> Bool {
        let options = Array(arguments.prefix { $0 != "--" })
        if options.contains("--isolate") { return true }
        var renderer = GlobalOptions.environmentRenderer
        for (index, argument) in options.enumerated() {
            for option in ["--renderer", "--backend"] {
                if argument == option, index + 1 < options.count { renderer = options[index + 1] }
                if argument.hasPrefix(option + "=") { renderer = String(argument.dropFirst(option.count + 1)) }
            }
        }
        if let renderer, !links(RendererSelection(renderer)) { return true }
        let names = Set(HostProgram.current.subcommands.map { $0._commandName })
        return !options.contains { names.contains($0) }
    }

    /// Replaces this process with the executable `name` in this one's directory, given
    /// `arguments`; standard input, output and error, the environment and the process id
    /// stay. Exits with 74 (I/O error) when that executable cannot be run.
    package static func handOff(_ arguments: [String], to name: String) -> Never {
        let directory = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .deletingLastPathComponent()
        let executable = directory.appendingPathComponent(name).path
        var argv = ([executable] + arguments).map { strdup($0) }
        argv.append(nil)
        execv(executable, argv)
        let reason = String(cString: strerror(errno))
        Failure.printError("cannot run \(executable), which serves this command: \(reason)")
        Glibc.exit(Failure.io)
    }
}
