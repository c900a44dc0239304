import Foundation
import RendererProvider
import RendererProviderXFDF
import Testing
import TestSupport

/// Free text with a style (font family, size, text colour, alignment) and a border: written by
/// each engine, read back alike by both, stored as `/DA` and `/Q` (pypdf reads them), and
/// carried by XFDF, drawn by `mutool draw` and `pdftocairo` in its colour and alignment; values the API
/// refuses, and the font Poppler cannot draw, are typed errors that add nothing.
@Suite("Free text styles on every engine")
struct FreeTextStyleTests {
    static let red = Color(red: 1, green: 0, blue: 0)

    static func note(_ alignment: TextAlignment, y: Double, family: FontFamily = .helvetica) -> Annotation {
        Annotation(
            kind: .freeText, pageIndex: 0, rect: PageRect(x: 100, y: y, width: 300, height: 40), borderWidth: 1, contents: "Styled",
            textStyle: TextStyle(fontFamily: family, fontSize: 18, color: red, alignment: alignment))
    }

    /// The horizontal middle, in points at 72 dpi, of the red pixels inside `rect` drawn by
    /// `tool`, with their count.
    static func redText(in image: Netpbm, rect: PageRect) -> (count: Int, middle: Double) {
        var xs: [Int] = []
        // Inside the border, so that only the text counts.
        for y in Int(rect.minY) + 3..<Int(rect.maxY) - 3 {
            for x in Int(rect.minX) + 3..<Int(rect.maxX) - 3 {
                let c = image.color(x: x, y: y)
                if c[0] > 200 && c[1] < 90 && c[2] < 90 { xs.append(x) }
            }
        }
        guard let low = xs.min(), let high = xs.max() else { return (0, 0) }
        return (xs.count, Double(low + high) / 2)
    }

    @Test(arguments: Fixtures.backendIDs)
    func aStyleIsWrittenReadAndDrawnAlike(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        let centred = try await document.addAnnotation(Self.note(.center, y: 300))
        let left = try await document.addAnnotation(Self.note(.left, y: 400))
        #expect(centred.textStyle == Self.note(.center, y: 300).textStyle)
        try document.save()

        for reader in Fixtures.backendIDs {
            let read = try await Fixtures.registry.open(.file(path), renderer: .id(reader)).annotations(pageAt: 0)
            #expect(read.map(\.textStyle) == [centred.textStyle, left.textStyle], "written by \(backend), read by \(reader)")
        }
        let script = """
            import sys, pypdf
            def number(token):
                try:
                    return "%g" % float(token)
                except ValueError:
                    return token
            for annot in pypdf.PdfReader(sys.argv[1]).pages[0]["/Annots"]:
                annot = annot.get_object()
                print(" ".join(number(token) for token in annot["/DA"].split()), annot.get("/Q", 0))
            """
        let stored = try await Tool.run("python3", ["-c", script, path])
        let lines = stored.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("/Helv 18") && $0.contains("1 0 0 rg") }, "\(lines)")
        #expect(lines.map { $0.split(separator: " ").last } == ["1", "0"], "\(lines)")

        // XFDF carries the style (defaultappearance, justification) into a copy by each engine.
        let xfdf = try document.xfdfData()
        #expect(String(decoding: xfdf, as: UTF8.self).contains(#"justification="centered""#))
        for importer in Fixtures.backendIDs {
            let target = try await Fixtures.registry.open(.file(AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))), renderer: .id(importer))
            _ = try target.importXFDF(xfdf)
            #expect(try target.annotations(pageAt: 0).map(\.textStyle) == [centred.textStyle, left.textStyle], "imported by \(importer)")
        }

        for tool in Fixtures.backendIDs {
            let drawn = try await EngineTools.draw(backend: tool, file: path, page: 1, dpi: 72, in: folder)
            let middle = Self.redText(in: drawn, rect: centred.rect), start = Self.redText(in: drawn, rect: left.rect)
            #expect(middle.count > 50 && start.count > 50, "\(tool) draws the text red (written by \(backend))")
            #expect(abs(middle.middle - (centred.rect.minX + centred.rect.maxX) / 2) < 10, "\(tool): centred text's middle \(middle.middle)")
            #expect(start.middle < (left.rect.minX + left.rect.maxX) / 2 - 60, "\(tool): left-aligned text's middle \(start.middle)")
        }
    }

    /// Times and Courier: MuPDF writes them and both engines read them; Poppler refuses to
    /// write them (it would draw them in Helvetica), and adds nothing.
    @Test func fontFamiliesBeyondHelveticaAreMuPDFs() async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let mupdf = try await Fixtures.registry.open(.file(path), renderer: .id("mupdf"))
        try await mupdf.addAnnotation(Self.note(.left, y: 300, family: .times))
        try await mupdf.addAnnotation(Self.note(.right, y: 400, family: .courier))
        try mupdf.save()
        let poppler = try await Fixtures.registry.open(.file(path), renderer: .id("poppler"))
        #expect(try poppler.annotations(pageAt: 0).map { $0.textStyle?.fontFamily } == [.times, .courier])
        let refused = #expect(throws: RendererError.self) { try poppler.addAnnotation(Self.note(.left, y: 500, family: .times)) }
        #expect(refused?.code == .unsupported && refused?.message.contains("Helvetica") == true)
        #expect(try poppler.annotations(pageAt: 0).count == 2 && !poppler.hasUnsavedChanges)
        // Its own contents may still change: the font it read is kept.
        var times = try poppler.annotations(pageAt: 0)[0]
        times.contents = "changed by Poppler"
        #expect(try await poppler.updateAnnotation(times).textStyle?.fontFamily == .times)
    }

    @Test(arguments: Fixtures.backendIDs)
    func badStylesAreRefused(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try await Fixtures.registry.open(.file(path), renderer: .id(backend))
        var square = Self.note(.left, y: 300)
        square.kind = .square
        var tiny = Self.note(.left, y: 300)
        tiny.textStyle?.fontSize = 0
        var strange = Self.note(.left, y: 300)
        strange.textStyle?.fontFamily = FontFamily(rawValue: "Times New Roman) Tj")
        for annotation in [square, tiny, strange] {
            let error = #expect(throws: RendererError.self) { try document.addAnnotation(annotation) }
            #expect(error?.code == .invalidArgument, "\(error?.message ?? "")")
        }
        #expect(try document.annotations(pageAt: 0).isEmpty)
    }
}
