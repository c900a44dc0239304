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
        let image: Set<ContentType> = [.png, .tiff]
        var options = image.contains(document.contentType) ? RenderOptions(pixelFormat: .rgba, background: .transparent) : RenderOptions()
        options.fitting = PixelSize(width: fitting, height: fitting)
        options.png.encoder = .fast
        return options
    }
}

struct IconsCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "icons", abstract: "Write icons of the first page in the sizes icon themes use, 16 to 512 pixels square.",
        discussion: "Each is DIR/SIZExSIZE/NAME.png (as a hicolor theme lays them out): the page centred on a transparent square.")

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Argument(help: "The document or image.", completion: .file()) var input: String
    @Argument(help: "The folder to write into (made if missing).", completion: .directory) var folder: String
    @Option(help: "The icons' file name, without .png (default: the input's name).") var name: String?

    static let sizes = [16, 24, 32, 48, 64, 128, 256, 512]

    func run() throws {
        try Failure.reporting {
            let document = try global.open(input, needing: [.render])
            let base = name ?? URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
            for size in Self.sizes {
                var options = ThumbnailCommand.options(for: document, fitting: size)
                options.pixelFormat = .rgba
                let page = try document.render(pageAt: 0, options: options)
                let place = "\(folder)/\(size)x\(size)"
                try FileManager.default.createDirectory(atPath: place, withIntermediateDirectories: true)
                try document.write(Self.squared(page, side: size), as: .png, to: "\(place)/\(base).png", png: options.png)
            }
            print("wrote \(Self.sizes.count) icons of \(base) into \(folder)")
        }
    }

    /// `bitmap` (RGBA) centred on a transparent square of `side` pixels.
    static func squared(_ bitmap: Bitmap, side: Int) -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: side * side * 4)
        let (left, top) = ((side - bitmap.width) / 2, (side - bitmap.height) / 2)
        for row in 0..<min(bitmap.height, side) {
            let from = row * bitmap.stride
            let to = ((top + row) * side + left) * 4
            bytes.replaceSubrange(to..<to + min(bitmap.width, side) * 4, with: bitmap.bytes[from..<from + min(bitmap.width, side) * 4])
        }
        return Bitmap(width: side, height: side, stride: side * 4, format: .rgba, bytes: bytes)
    }
}
