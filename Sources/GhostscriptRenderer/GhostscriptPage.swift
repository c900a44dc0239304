import CGhostscript
import EngineSupport
import Foundation
import RendererEngine

/// A page of a ``GhostscriptDocument``: each call runs Ghostscript on this page alone.
final class GhostscriptPage: EnginePage {
    let document: GhostscriptDocument
    let index: Int
    let facts: GhostscriptPageFacts

    init(document: GhostscriptDocument, index: Int, facts: GhostscriptPageFacts) {
        self.document = document
        self.index = index
        self.facts = facts
    }

    /// The crop box as displayed and the five boxes; the label is the page number (no
    /// `/PageLabels` read).
    func info() throws -> PageInfo {
        PageInfo(index: index, size: facts.size, rotation: facts.rotation, label: String(index + 1), boxes: facts.boxes)
    }

    func pageSpace() throws -> PageSpace {
        PageSpace(cropBox: facts.cropBox, rotation: facts.rotation)
    }

    /// What `gs -sDEVICE=txtwrite` writes for the page.
    func plainText() throws -> String {
        String(decoding: try text(format: 3), as: UTF8.self)
    }

    /// txtwrite's blocks, lines and characters (see ``GhostscriptText``).
    func textPage() throws -> TextPage {
        try GhostscriptText.page(from: text(format: 1), rotation: facts.rotation)
    }

    /// Draws through the display device at `options.dpi`, the page's crop box (an area that
    /// reaches past it, for a larger box, is `unsupported`), on a page
    /// filled with `options.background` first (Ghostscript's display device has no alpha
    /// channel: an RGBA output's background must be opaque). Gray output is the RGB drawing's
    /// luminance, as the other engines give it (`Bitmap.luminance`), where Ghostscript's own
    /// gray would follow its colour profiles.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        guard PixelRect.area(area, liesOnPageOf: facts.size, scale: options.scale) else {
            throw RendererError(
                .unsupported, "Ghostscript draws only inside the crop box here, and page \(index + 1)'s \(options.box.rawValue) box reaches past it",
                rendererID: Ghostscript.rendererID)
        }
        guard options.background.bytes.alpha == 255 else {
            throw RendererError(.unsupported, "Ghostscript draws pages on an opaque background only", rendererID: Ghostscript.rendererID)
        }
        guard options.pixelFormat != .gray else {
            var rgbOptions = options
            rgbOptions.pixelFormat = .rgb
            var rgb = [UInt8](repeating: 0, count: area.width * area.height * 3)
            try rgb.withUnsafeMutableBufferPointer { try render(area, options: rgbOptions, into: $0, cancellation: cancellation) }
            for index in 0..<(area.width * area.height) {
                pixels[index] = Bitmap.luminance(red: rgb[3 * index], green: rgb[3 * index + 1], blue: rgb[3 * index + 2])
            }
            return
        }
        let bytesPerPixel = options.pixelFormat.bytesPerPixel
        Self.fill(pixels, with: options.background, bytesPerPixel: bytesPerPixel)
        var target = cgs_target(
            pixels: pixels.baseAddress, x: Int32(area.x), y: Int32(area.y), width: Int32(area.width), height: Int32(area.height),
            bytes_per_pixel: Int32(bytesPerPixel), pages: 0)
        let color = options.background
        var arguments = [
            "-sDEVICE=display", "-dDisplayFormat=\(cgs_display_format(Int32(bytesPerPixel)))", "-r\(options.dpi)",
            "-dTextAlphaBits=4", "-dGraphicsAlphaBits=4",
        ]
        if !options.annotations { arguments.append("-dShowAnnots=false") }
        arguments += document.pageArguments(index)
        if color != .white {
            arguments += ["-c", "<< /BeginPage { pop gsave \(color.red) \(color.green) \(color.blue) setrgbcolor clippath fill grestore } >> setpagedevice", "-f"]
        }
        arguments.append(document.file.path)
        try Ghostscript.run(arguments, target: &target, cancellation: cancellation, doing: "draw page \(index + 1)", logger: document.logger)
        guard target.pages == 1 else {
            throw RendererError(.damaged, "Ghostscript drew no page \(index + 1)", rendererID: Ghostscript.rendererID)
        }
    }

    /// The page's text as the txtwrite device writes it in `format` (1: XML with a box per
    /// character, 3: plain UTF-8).
    private func text(format: Int) throws -> Data {
        let output = try MemoryFile()
        try Ghostscript.run(
            ["-sDEVICE=txtwrite", "-dTextFormat=\(format)", "-sOutputFile=\(output.path)"] + document.pageArguments(index) + [document.file.path],
            doing: "extract page \(index + 1)'s text", logger: document.logger)
        return try output.contents(limit: Ghostscript.outputLimit)
    }

    /// Sets every pixel of `pixels`, RGB or RGBA, to `color`: the first pixel, then the part
    /// already set copied after itself until the buffer is full (a few dozen copies for a page).
    private static func fill(_ pixels: UnsafeMutableBufferPointer<UInt8>, with color: Color, bytesPerPixel: Int) {
        let whole = pixels.count - pixels.count % bytesPerPixel
        guard let base = pixels.baseAddress, whole > 0 else { return }
        let bytes = color.bytes
        withUnsafeBytes(of: (bytes.red, bytes.green, bytes.blue, bytes.alpha)) { pixel in
            base.update(from: pixel.bindMemory(to: UInt8.self).baseAddress!, count: bytesPerPixel)
        }
        var filled = bytesPerPixel
        while filled < whole {
            let count = min(filled, whole - filled)
            (base + filled).update(from: base, count: count)
            filled += count
        }
    }
}
