import Foundation
import RendererProvider
import Testing
import TestSupport

/// The rendering contract, checked on every backend against colours and positions the
/// fixtures were built with.
@Suite("Rendering, on every backend")
struct RenderConformanceTests {
    @Test(arguments: Fixtures.readingBackendIDs)
    func bitmapDimensions(backend: String) throws {
        let text = try Fixtures.open("text.pdf", backend: backend)
        let at150 = try text.render(pageAt: 0, options: RenderOptions(dpi: 150))
        #expect((at150.width, at150.height) == (1275, 1650))
        #expect(at150.stride == 1275 * 3 && at150.bytes.count == 1275 * 3 * 1650)
        let at72 = try text.render(pageAt: 0, options: RenderOptions(dpi: 72))
        #expect((at72.width, at72.height) == (612, 792))
        // 595.28 x 841.89 pt at 96 dpi: 793.71 x 1122.52 pixels, rounded up.
        let a4 = try Fixtures.open("mixed-sizes.pdf", backend: backend).render(pageAt: 1, options: RenderOptions(dpi: 96))
        #expect((a4.width, a4.height) == (794, 1123))
        let turned = try Fixtures.open("rotated.pdf", backend: backend).render(pageAt: 1, options: RenderOptions(scale: 0.5))
        #expect((turned.width, turned.height) == (396, 306))
    }

    @Test(arguments: Fixtures.readingBackendIDs, [72.0, 150.0])
    func exactColoursInsideTheRectangles(backend: String, dpi: Double) throws {
        let bitmap = try Fixtures.open("colors.pdf", backend: backend).render(pageAt: 0, options: RenderOptions(dpi: dpi))
        for (rect, rgb) in FixtureFacts.colorRects {
            #expect(bitmap.pixel(at: rect.center, dpi: dpi) == rgb, "\(rect)")
            #expect(bitmap.pixel(at: PagePoint(x: rect.minX + 2, y: rect.minY + 2), dpi: dpi) == rgb, "\(rect) near its corner")
        }
        #expect(bitmap.pixel(at: PagePoint(x: 20, y: 20), dpi: dpi) == [255, 255, 255])
        #expect(bitmap.pixel(at: PagePoint(x: 300, y: 700), dpi: dpi) == [255, 255, 255])
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func rotatedPagesPutContentWhereTheRotationSays(backend: String) throws {
        let document = try Fixtures.open("rotated.pdf", backend: backend)
        for (index, expected) in FixtureFacts.rotatedRedRects.enumerated() {
            let bitmap = try document.render(pageAt: index, options: RenderOptions(dpi: 72))
            #expect(bitmap.pixel(at: expected.rect.center, dpi: 72) == [255, 0, 0], "page \(index)")
            // The point-symmetric spot on the page is white.
            let mirrored = PagePoint(x: Double(bitmap.width) - expected.rect.center.x, y: Double(bitmap.height) - expected.rect.center.y)
            #expect(bitmap.pixel(at: mirrored, dpi: 72) == [255, 255, 255], "page \(index)")
        }
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func cropBoxHidesWhatLiesOutside(backend: String) throws {
        let bitmap = try Fixtures.open("cropbox.pdf", backend: backend).render(pageAt: 0, options: RenderOptions(dpi: 72))
        #expect((bitmap.width, bitmap.height) == (300, 400))
        #expect(bitmap.pixel(at: FixtureFacts.cropRed.center, dpi: 72) == [255, 0, 0])
        let blue = stride(from: 0, to: bitmap.bytes.count, by: 3).filter { bitmap.bytes[$0 + 2] > 200 && bitmap.bytes[$0] < 50 }
        #expect(blue.isEmpty, "the blue rectangle outside the crop box shows")
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func clipRendersThatRectangleOnly(backend: String) throws {
        let document = try Fixtures.open("colors.pdf", backend: backend)
        let red = FixtureFacts.colorRects[0].rect
        let clipped = try document.render(pageAt: 0, options: RenderOptions(dpi: 150, clip: red))
        #expect((clipped.width, clipped.height) == (300, 300))
        let colours: Set<[UInt8]> = Set(stride(from: 0, to: clipped.bytes.count, by: 3).map { (i: Int) -> [UInt8] in Array(clipped.bytes[i..<i + 3]) })
        #expect(colours == [[255, 0, 0]])

        // A clip is the same pixels as that part of the whole page.
        let clip = PageRect(x: 200, y: 50, width: 100, height: 120)
        let part = try document.render(pageAt: 0, options: RenderOptions(dpi: 72, clip: clip))
        let whole = try document.render(pageAt: 0, options: RenderOptions(dpi: 72))
        #expect((part.width, part.height) == (100, 120))
        for y in 0..<part.height {
            let row = whole.bytes[((50 + y) * whole.stride + 200 * 3)..<((50 + y) * whole.stride + 300 * 3)]
            #expect(Array(part.row(y)) == Array(row), "row \(y)")
        }

        let overhanging = try document.render(pageAt: 0, options: RenderOptions(dpi: 72, clip: PageRect(x: 600, y: 780, width: 100, height: 100)))
        #expect((overhanging.width, overhanging.height) == (12, 12))
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func grayOutput(backend: String) throws {
        let bitmap = try Fixtures.open("colors.pdf", backend: backend).render(pageAt: 0, options: RenderOptions(pixelFormat: .gray))
        #expect(bitmap.format == .gray && bitmap.stride == 612)
        for (rect, rgb) in FixtureFacts.colorRects {
            // Luminance 0.30 R + 0.59 G + 0.11 B, within one level of rounding.
            let luma = 0.30 * Double(rgb[0]) + 0.59 * Double(rgb[1]) + 0.11 * Double(rgb[2])
            let value = Double(bitmap.pixel(at: rect.center, dpi: 72)[0])
            #expect(abs(value - luma) <= 1, "\(rgb) gave \(value), luminance \(luma)")
        }
        #expect(bitmap.pixel(x: 10, y: 10) == [255])
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func alphaOutputOnTransparentBackground(backend: String) throws {
        let options = RenderOptions(pixelFormat: .rgba, background: .transparent)
        guard Fixtures.engineID(backend) != "ghostscript" else {
            // Ghostscript's display device has no alpha channel: refused, never drawn opaque.
            let error = #expect(throws: RendererError.self) { try Fixtures.open("colors.pdf", backend: backend).render(pageAt: 0, options: options) }
            #expect(error?.code == .unsupported)
            return
        }
        let bitmap = try Fixtures.open("colors.pdf", backend: backend).render(pageAt: 0, options: options)
        #expect(bitmap.stride == 612 * 4)
        #expect(bitmap.pixel(at: FixtureFacts.colorRects[0].rect.center, dpi: 72) == [255, 0, 0, 255])
        #expect(bitmap.pixel(at: FixtureFacts.colorRects[4].rect.center, dpi: 72) == [255, 255, 0, 255])
        #expect(bitmap.pixel(x: 10, y: 10)[3] == 0)
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func backgroundColour(backend: String) throws {
        let options = RenderOptions(background: Color(red: 0, green: 0, blue: 1))
        let bitmap = try Fixtures.open("colors.pdf", backend: backend).render(pageAt: 0, options: options)
        #expect(bitmap.pixel(x: 10, y: 10) == [0, 0, 255])
        #expect(bitmap.pixel(at: FixtureFacts.colorRects[0].rect.center, dpi: 72) == [255, 0, 0])
    }

    @Test(arguments: Fixtures.readingBackendIDs)
    func badRequestsFailBeforeDrawing(backend: String) throws {
        let document = try Fixtures.open("text.pdf", backend: backend)
        let huge = #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: RenderOptions(dpi: 100_000)) }
        #expect(huge?.code == .limitExceeded)
        let absurd = #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: RenderOptions(dpi: 1e300)) }
        #expect(absurd?.code == .limitExceeded)
        for dpi in [0, -72, Double.nan] {
            #expect((#expect(throws: RendererError.self) { try document.render(pageAt: 0, options: RenderOptions(dpi: dpi)) })?.code == .invalidArgument)
        }
        let outside = RenderOptions(clip: PageRect(x: 700, y: 0, width: 10, height: 10))
        #expect((#expect(throws: RendererError.self) { try document.render(pageAt: 0, options: outside) })?.code == .invalidArgument)
    }

    /// PNG from the provider's encoder, decoded by netpbm's independent `pngtopam`, gives back
    /// the bitmap's pixels in every format.
    @Test(arguments: Fixtures.readingBackendIDs, PixelFormat.allCases)
    func pngRoundTrip(backend: String, format: PixelFormat) async throws {
        let document = try await Fixtures.conformanceRegistry.open(.file(Fixtures.samplePath), renderer: .id(backend))
        // Ghostscript draws RGBA on an opaque background only (alphaOutputOnTransparentBackground).
        let transparent = format == .rgba && Fixtures.engineID(backend) != "ghostscript"
        let options = RenderOptions(dpi: 40, pixelFormat: format, background: transparent ? .transparent : .white)
        let bitmap = try await document.render(pageAt: 1, options: options)
        let png = try document.encode(bitmap, as: .png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("page.png")
        try png.write(to: file)
        let decoded = try await Netpbm(Tool.run("pngtopam", format == .rgba ? ["-alphapam", file.path] : [file.path]).stdout)
        #expect((decoded.width, decoded.height, decoded.channels) == (bitmap.width, bitmap.height, format.bytesPerPixel))
        if format == .rgba {
            // Alpha survives exactly, and so does the colour of every opaque pixel.
            var mismatches = 0
            for i in stride(from: 0, to: bitmap.bytes.count, by: 4) {
                let alpha: UInt8 = bitmap.bytes[i + 3]
                let colourDiffers: Bool = decoded.pixels[i..<i + 3] != bitmap.bytes[i..<i + 3]
                if decoded.pixels[i + 3] != alpha || (alpha == 255 && colourDiffers) { mismatches += 1 }
            }
            #expect(mismatches == 0)
        } else {
            #expect(decoded.pixels == bitmap.bytes)
        }
    }
}
