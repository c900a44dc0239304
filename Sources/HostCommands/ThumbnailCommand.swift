import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererIsolation
import RendererProvider

/// Pictures of a document for the desktop: a thumbnail as freedesktop.org's thumbnailer
/// specification runs one, and icons in the sizes icon themes use.
struct ThumbnailCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail", abstract: "Write a PNG of the first page (a book's cover) whose longest side is at most SIZE pixels.",
        discussion: """
            As a file manager runs a thumbnailer (Exec=hostapp thumbnail -s %s %i %o): pages are drawn on white, images keep \
            their transparency. A file that cannot be read ends with a non-zero status and writes no file.
            """)

    @ParentCommand var hostApp: HostApp

    @Option(name: .short, help: "The longest side, in pixels (1 to 4096).") var size = 256
    @Argument(help: "The document or image.", completion: .file()) var input: String
    @Argument(help: "The PNG to write.", completion: .file(extensions: ["png"])) var output: String
    @OptionGroup var globalArguments: GlobalArguments

    func validate() throws {
        guard (1...4096).contains(size) else { throw ValidationError("-s must be from 1 to 4096 pixels") }
    }

    func execute() throws {
        try Self.write(input, fitting: size, to: output, with: global)
    }

    /// Writes the thumbnail of `input` whose longest side is at most `fitting` pixels into
    /// `output`, opening the document with the options `global` gives, in a process capped
    /// first (``limitThisProcess()``): it does nothing else.
    static func write(_ input: String, fitting: Int, to output: String, with global: GlobalOptions) throws {
        limitThisProcess()
        let document = try global.open(input, needing: [.render])
        try document.render(pageAt: 0, options: options(for: document, fitting: fitting), as: .png, to: output)
    }

    /// The most address space a thumbnail run may take: the desktop runs one on every file
    /// a folder shows, strangers' files among them (a 2.8 KB comic book archive took 3.1 GB).
    /// hostapp-full alone maps about 600 MB.
    static let memoryBytes = 1 << 30
    /// The most processor time a thumbnail run may take, past which the system ends it.
    static let processorSeconds = 60

    /// Caps this process at ``memoryBytes`` and ``processorSeconds``: an engine that would
    /// take more fails its allocations (a typed error, no file) or is ended.
    static func limitThisProcess() {
        ProcessLimits.limitAddressSpace(to: memoryBytes)
        ProcessLimits.limitProcessorTime(to: processorSeconds)
    }

    /// Options that draw the first page within `fitting` x `fitting` pixels: on white, but
    /// with the transparency an image has.
    static func options(for document: Document, fitting: Int) -> RenderOptions {
        var options = document.contentType.mayBeTransparent ? RenderOptions(pixelFormat: .rgba, background: .transparent) : RenderOptions()
        options.fitting = PixelSize(width: fitting, height: fitting)
        return options
    }
}

/// The call a file manager makes, `thumbnail -s SIZE INPUT OUTPUT` (the thumbnailer
/// entry's Exec line with its fields substituted) and nothing else, read without building
/// the command tree: parsing every command's options costs a thumbnail run more time than
/// drawing a small page does. Any other form of the command, help included, is not this
/// call and goes through the command parser.
package struct ThumbnailerCall {
    /// The longest side, in pixels (1 to 4096).
    package var size: Int
    /// The document or image.
    package var input: String
    /// The PNG to write.
    package var output: String

    /// The call in `arguments` (those after the program's name), or nil when they are
    /// anything other than `thumbnail -s SIZE INPUT OUTPUT` with a valid size and operands
    /// that cannot be taken for options.
    package init?(_ arguments: [String]) {
        guard arguments.count == 5, arguments[0] == ThumbnailCommand.configuration.commandName, arguments[1] == "-s",
            let size = Int(arguments[2]), (1...4096).contains(size),
            !arguments[3].hasPrefix("-"), !arguments[4].hasPrefix("-")
        else { return nil }
        (self.size, input, output) = (size, arguments[3], arguments[4])
    }

    /// Writes the thumbnail with the default global options (the renderer the environment
    /// names, else `auto`) and ends the process: 0 when written, else the exit
    /// code and message the parsed command gives.
    package func run() -> Never {
        do {
            try Failure.reporting { try ThumbnailCommand.write(input, fitting: size, to: output, with: GlobalOptions()) }
        } catch {
            HostApp.exit(withError: error)
        }
        HostApp.exit()
    }
}

struct IconsCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "icons", abstract: "Write icons of the first page in the sizes icon themes use, 16 to 512 pixels square.",
        discussion: "Each is DIR/SIZExSIZE/NAME.png (as a hicolor theme lays them out): the page centred on a transparent square (Document.iconImage).")

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document or image.", completion: .file()) var input: String
    @Argument(help: "The folder to write into (made if missing).", completion: .directory) var folder: String
    @Option(help: "The icons' file name, without .png (default: the input's name).") var name: String?
    @OptionGroup var globalArguments: GlobalArguments

    func execute() throws {
        let document = try global.open(input, needing: [.render])
        let base = name ?? URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        for size in Document.iconSides {
            let place = "\(folder)/\(size)x\(size)"
            try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
            try document.write(try document.iconImage(side: size), as: .png, to: "\(place)/\(base).png")
        }
        print("wrote \(Document.iconSides.count) icons of \(base) into \(folder)")
    }
}
