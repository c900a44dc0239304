import Foundation
import RendererProvider
import Testing
import TestSupport

/// Image stamps: a picture (PNG with transparency, JPEG) added by each engine is drawn by that
/// engine, and, once saved, by `mutool draw` and `pdftocairo`, where the stamp is and with the
/// page showing through its transparent part, upright on turned pages; it stays through later edits; a large picture
/// is stored at 300 pixels an inch of the stamp; bad pictures are typed errors that add
/// nothing.
@Suite("Image stamps on every engine")
struct ImageStampTests {
    static let stamp = Annotation(kind: .stamp, pageIndex: 0, rect: StampPictures.room, contents: "photo", author: "ada")

    /// Whether `drawn` (at 72 dpi) shows the quadrants of a picture in `rect`: each colour
    /// within a small tolerance, and the page as `page` shows it under the transparent one.
    static func showsPicture(_ drawn: (Int, Int) -> [UInt8], in rect: PageRect, over page: (Int, Int) -> [UInt8]) -> [String] {
        StampPictures.samples(in: rect).compactMap { sample in
            let (x, y) = (Int(sample.point.x), Int(sample.point.y))
            let expected = sample.color ?? page(x, y)
            let found = Array(drawn(x, y).prefix(3))
            return zip(found, expected).allSatisfy({ abs(Int($0) - Int($1)) <= 8 }) ? nil : "at \(x),\(y): \(found), not \(expected)"
        }
    }

    @Test(arguments: Fixtures.backendIDs)
    func aPictureIsDrawnByItsEngineAndByBothToolsAndStaysThroughEdits(backend: String) async throws {
        let original = Fixtures.path("text.pdf")
        let path = try AnnotationSamples.scratchCopy(of: original)
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("stamp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        let plain = try await document.render(pageAt: 0, options: RenderOptions(dpi: 72))

        let added = try document.addImageStamp(Self.stamp, image: StampImage(data: StampPictures.png(StampPictures.quadrants())))
        #expect(abs(added.rect.minX - 72) < 0.5 && abs(added.rect.minY - 122) < 0.5, "\(added.rect)")
        #expect(abs(added.rect.size.width - 200) < 0.5 && abs(added.rect.size.height - 100) < 0.5, "\(added.rect)")
        #expect(added.kind == .stamp && added.contents == "photo")
        let drawn = try await document.render(pageAt: 0, options: RenderOptions(dpi: 72))
        #expect(Self.showsPicture({ drawn.pixel(x: $0, y: $1) }, in: added.rect, over: { plain.pixel(x: $0, y: $1) }) == [], "\(backend)")
        try document.save()

        for tool in Fixtures.backendIDs {
            let before = try await EngineTools.draw(backend: tool, file: original, page: 1, dpi: 72, in: folder)
            let after = try await EngineTools.draw(backend: tool, file: path, page: 1, dpi: 72, in: folder)
            #expect(Self.showsPicture(after.color, in: added.rect, over: before.color) == [], "written by \(backend), drawn by \(tool)'s tool")
        }

        // Moved, resized and given new contents, by the other engine too: still the picture.
        let other = Fixtures.backendIDs.first { $0 != backend }!
        for editor in [backend, other] {
            let reopened = try await Fixtures.registry.open(.file(path), renderer: .id(editor))
            var moved = try reopened.annotation(withID: added.id)
            moved.rect = PageRect(x: 300, y: 400, width: 100, height: 50)
            moved.contents = "moved by \(editor)"
            try await reopened.updateAnnotation(moved)
            try reopened.save()
            for tool in Fixtures.backendIDs {
                let before = try await EngineTools.draw(backend: tool, file: original, page: 1, dpi: 72, in: folder)
                let after = try await EngineTools.draw(backend: tool, file: path, page: 1, dpi: 72, in: folder)
                #expect(Self.showsPicture(after.color, in: moved.rect, over: before.color) == [], "edited by \(editor), drawn by \(tool)'s tool")
            }
        }
    }

    /// On pages the document turns (90, 180 and 270 degrees), the picture stands upright on
    /// the page as shown, in both tools' drawings: its quadrants where the room was given.
    @Test(arguments: Fixtures.backendIDs)
    func aPictureStandsUprightOnATurnedPage(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("rotated.pdf"))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        let picture = try StampImage(data: StampPictures.png(StampPictures.quadrants()))
        var placed: [Int: PageRect] = [:]
        for page in 1...3 {
            var stamp = Self.stamp
            stamp.pageIndex = page
            placed[page] = try document.addImageStamp(stamp, image: picture).rect
            #expect(abs(placed[page]!.size.width - 200) < 0.5 && abs(placed[page]!.size.height - 100) < 0.5, "page \(page + 1): \(placed[page]!)")
        }
        try document.save()
        for tool in Fixtures.backendIDs {
            for page in 1...3 {
                let drawn = try await EngineTools.draw(backend: tool, file: path, page: page + 1, dpi: 72, in: folder)
                let wrong = StampPictures.samples(in: placed[page]!).compactMap { sample -> String? in
                    guard let color = sample.color else { return nil }
                    let found = Array(drawn.color(x: Int(sample.point.x), y: Int(sample.point.y)).prefix(3))
                    return zip(found, color).allSatisfy({ abs(Int($0) - Int($1)) <= 8 }) ? nil : "at \(sample.point): \(found), not \(color)"
                }
                #expect(wrong == [], "written by \(backend), page \(page + 1) drawn by \(tool)'s tool")
            }
        }
    }

    /// A picture far finer than the stamp needs is stored scaled down (pypdf reads the size of
    /// the image in the stamp's appearance); a small one is stored as it is.
    @Test(arguments: Fixtures.backendIDs)
    func aLargePictureIsStoredAtThreeHundredPixelsAnInch(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        let large = try StampImage(data: StampPictures.jpeg(StampPictures.quadrants(width: 2000, height: 1000)))
        #expect(large.alpha == nil && large.width == 2000)
        try document.addImageStamp(
            Annotation(kind: .stamp, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 144, height: 72)), image: large)
        try document.addImageStamp(
            Annotation(kind: .stamp, pageIndex: 0, rect: PageRect(x: 72, y: 300, width: 144, height: 72)),
            image: StampImage(data: StampPictures.png(StampPictures.quadrants())))
        try document.save()
        let script = """
            import sys, pypdf
            for annot in pypdf.PdfReader(sys.argv[1]).pages[0]["/Annots"]:
                xobjects = annot.get_object()["/AP"]["/N"]["/Resources"]["/XObject"]
                for image in xobjects.values():
                    image = image.get_object()
                    print(image["/Width"], image["/Height"], "/SMask" in image)
            """
        let read = try await Tool.run("python3", ["-c", script, path])
        #expect(read.status == 0, "\(read.stderr)")
        // 2 x 1 inches at 300 pixels an inch; the small picture keeps its 40 x 20 and its mask.
        #expect(read.text.split(separator: "\n") == ["600 300 False", "40 20 True"], "\(backend): \(read.text)")
    }

    @Test(arguments: Fixtures.backendIDs)
    func badPicturesAreTypedErrorsAndAddNothing(backend: String) async throws {
        let png = try StampPictures.png(StampPictures.quadrants())
        var jpeg = try StampPictures.jpeg(StampPictures.quadrants())
        let notAnImage = #expect(throws: RendererError.self) { try StampImage(data: Data("%PDF-1.7 not a picture".utf8)) }
        #expect(notAnImage?.code == .unsupportedFormat)
        let truncated = #expect(throws: RendererError.self) { try StampImage(data: png.prefix(60)) }
        #expect(truncated?.code == .damaged)
        // A JPEG whose frame header claims 60,000 x 60,000 pixels: refused before decoding.
        let frame = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange(frame + 5..<frame + 9, with: [0xEA, 0x60, 0xEA, 0x60])
        let huge = #expect(throws: RendererError.self) { try StampImage(data: jpeg) }
        #expect(huge?.code == .limitExceeded)
        let missing = #expect(throws: RendererError.self) { try StampImage(contentsOfFile: "/nonexistent/picture.png") }
        #expect(missing?.code == .fileNotFound)

        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        var square = Self.stamp
        square.kind = .square
        let wrongKind = #expect(throws: RendererError.self) { try document.addImageStamp(square, image: StampImage(data: png)) }
        #expect(wrongKind?.code == .invalidArgument)
        #expect(try document.annotations(pageAt: 0).isEmpty && !document.hasUnsavedChanges)
    }
}
