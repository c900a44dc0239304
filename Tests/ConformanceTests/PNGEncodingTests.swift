import Foundation
import RendererProvider
import Testing
import TestSupport

/// The fast PNG encoder (libdeflate) against netpbm's own PNG decoder, `pngtopam`: every
/// filter, level and pixel format decodes to exactly the pixels drawn.
@Suite("Fast PNG encoding, read back by netpbm")
struct PNGEncodingTests {
    /// A page drawn in each pixel format, encoded with each filter (and with and without
    /// fewer channels): `pngtopam` reads back the bitmap's pixels, alpha included.
    @Test(arguments: Fixtures.conformanceBackendIDs, [PixelFormat.gray, .rgb, .rgba])
    func everyFilterDecodesToThePixelsDrawn(backend: String, format: PixelFormat) async throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let options = RenderOptions(dpi: 30, pixelFormat: format, background: format == .rgba ? .transparent : .white)
        let bitmap = try await document.render(pageAt: 0, options: options)
        for filter in PNGEncoding.Filter.allCases {
            for reduces in [true, false] {
                let png = try document.encode(bitmap, as: .png, png: PNGEncoding(filter: filter, reducesChannels: reduces))
                #expect(try await Self.holds(png, bitmap), "\(filter), reducing: \(reduces)")
                if !reduces { #expect(Self.colorType(png) == [.gray: 0, .rgb: 2, .rgba: 6][format]) }
            }
        }
    }

    /// Every level from 0 (stored) to 12 reads back the same pixels; higher levels are no
    /// larger than lower ones across the range's ends.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func everyLevelDecodesToThePixelsDrawn(backend: String) async throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let bitmap = try await document.render(pageAt: 0, options: RenderOptions(dpi: 40))
        var sizes: [Int: Int] = [:]
        for level in PNGEncoding.levels {
            let png = try document.encode(bitmap, as: .png, png: PNGEncoding(level: level))
            #expect(try await Self.holds(png, bitmap), "level \(level)")
            sizes[level] = png.count
        }
        #expect(sizes[12]! <= sizes[1]! && sizes[1]! < sizes[0]!, "\(sizes.sorted { $0.key < $1.key })")
        // Level 0 stores the filtered rows: more than the pixels themselves.
        #expect(sizes[0]! > bitmap.bytes.count)
    }

    /// A page of black text on white is all gray: drawn as RGB (or opaque RGBA), it is written
    /// as a gray PNG, a third (a quarter) of the samples, unless the channels are kept; a
    /// coloured page keeps its three channels.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func grayAndOpaquePagesTakeFewerChannels(backend: String) throws {
        let text = try Fixtures.open("text.pdf", backend: backend)
        for format in [PixelFormat.rgb, .rgba] {
            let bitmap = try text.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: format))
            #expect(try Self.colorType(text.encode(bitmap, as: .png)) == 0, "\(format): gray")
            #expect(try Self.colorType(text.encode(bitmap, as: .png, png: PNGEncoding(reducesChannels: false))) == (format == .rgb ? 2 : 6))
        }
        let colors = try Fixtures.open("colors.pdf", backend: backend)
        let bitmap = try colors.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: .rgba))
        #expect(try Self.colorType(colors.encode(bitmap, as: .png)) == 2, "opaque RGBA drops its alpha")
        let transparent = try colors.render(pageAt: 0, options: RenderOptions(dpi: 30, pixelFormat: .rgba, background: .transparent))
        #expect(try Self.colorType(colors.encode(transparent, as: .png)) == 6)
    }

    /// Rendering straight to a PNG file writes partly transparent RGBA with straight alpha,
    /// the pixels a bitmap drawn with the same options holds, whichever engine drew them.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func partlyTransparentPagesAreWrittenStraight(backend: String) async throws {
        let document = try Fixtures.open("annotations.pdf", backend: backend)
        let directory = try ImageOutputTests.scratchDirectory()
        let options = RenderOptions(dpi: 36, pixelFormat: .rgba, background: .transparent)
        let path = directory + "/page.png"
        try await document.render(pageAt: 0, options: options, as: .png, to: path)
        let straight = try await document.render(pageAt: 0, options: options)
        #expect(straight.bytes.enumerated().contains { $0.offset % 4 == 3 && $0.element != 0 && $0.element != 255 }, "the page has partly transparent pixels")
        #expect(try await Self.holds(Data(contentsOf: URL(fileURLWithPath: path)), straight))
    }

    /// A level out of range is refused before anything is written, leaving the old file.
    @Test func aLevelOutOfRangeWritesNothing() throws {
        let document = try Fixtures.open("colors.pdf", backend: "mupdf")
        let directory = try ImageOutputTests.scratchDirectory()
        let path = directory + "/page.png"
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        for level in [-1, 13] {
            let error = #expect(throws: RendererError.self) {
                try document.render(pageAt: 0, options: RenderOptions(dpi: 20), as: .png, to: path, png: PNGEncoding(level: level))
            }
            #expect(error?.code == .invalidArgument)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["page.png"])
    }

    /// Whether netpbm reads back exactly the bitmap's size and pixels from the PNG file's bytes.
    static func holds(_ png: Data, _ bitmap: Bitmap) async throws -> Bool {
        let decoded = try await decode(png).converted(toChannels: bitmap.format.bytesPerPixel)
        return decoded.width == bitmap.width && decoded.height == bitmap.height && decoded.pixels == bitmap.bytes
    }

    /// netpbm's reading of a PNG file's bytes, with an alpha channel (opaque if the file has none).
    static func decode(_ png: Data) async throws -> Netpbm {
        let directory = try ImageOutputTests.scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/image.png"
        try png.write(to: URL(fileURLWithPath: path))
        let result = try await Tool.run("pngtopam", ["-alphapam", path])
        #expect(result.status == 0, "pngtopam: \(result.stderr)")
        return try Netpbm(result.stdout)
    }

    /// The colour type in a PNG's IHDR chunk: 0 gray, 2 RGB, 4 gray and alpha, 6 RGBA.
    static func colorType(_ png: Data) -> UInt8 {
        png[png.startIndex + 25]
    }
}
