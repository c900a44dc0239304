import ArgumentParser
import Foundation
import RendererProvider

/// Pictures of a document for the desktop: a thumbnail as freedesktop.org's thumbnailer
/// specification runs one, and icons in the sizes icon themes use.
struct ThumbnailCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail", abstract: "Write a PNG of the first page (a book's cover) whose longest side is at most SIZE pixels.",
        discussion: """
            As a file manager runs a thumbnailer (Exec=hostapp thumbnail -s %s %i %o): pages are drawn on white, images keep \
            their transparency. A file that cannot be read ends with a non-zero status and writes no file.
            """)

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Option(name: .short, help: "The longest side, in pixels (1 to 4096).") var size = 256
    @Argument(help: "The document or image.", completion: .file()) var input: String
    @Argument(help: "The PNG to write.", completion: .file(extensions: ["png"])) var output: String

    func validate() throws {
        guard (1...4096).contains(size) else { throw ValidationError("-s must be from 1 to 4096 pixels") }
    }

    func run() throws {
        try Failure.reporting {
            let document = try global.open(input, needing: [.render])
            try document.render(pageAt: 0, options: Self.options(for: document, fitting: size), as: .png, to: output)
        }
    }

    /// Options that draw the first page within `fitting` x `fitting` pixels: on white, but
    /// with the transparency an image has.
    static func options(for document: Document, fitting: Int) -> RenderOptions {
        var options = document.contentType.mayBeTransparent ? RenderOptions(pixelFormat: .rgba, background: .transparent) : RenderOptions()
        options.fitting = PixelSize(width: fitting, height: fitting)
        options.png.encoder = .fast
        return options
    }
}

struct IconsCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "icons", abstract: "Write icons of the first page in the sizes icon themes use, 16 to 512 pixels square.",
        discussion: "Each is DIR/SIZExSIZE/NAME.png (as a hicolor theme lays them out): the page centred on a transparent square (Document.iconImage).")

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document or image.", completion: .file()) var input: String
    @Argument(help: "The folder to write into (made if missing).", completion: .directory) var folder: String
    @Option(help: "The icons' file name, without .png (default: the input's name).") var name: String?

    func run() throws {
        try Failure.reporting {
            let document = try global.open(input, needing: [.render])
            let base = name ?? URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            for size in Document.iconSides {
                let place = "\(folder)/\(size)x\(size)"
                try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
                var png = PNGEncoding()
                png.encoder = .fast
                try document.write(try document.iconImage(side: size), as: .png, to: "\(place)/\(base).png", png: png)
            }
            print("wrote \(Document.iconSides.count) icons of \(base) into \(folder)")
        }
    }
}
