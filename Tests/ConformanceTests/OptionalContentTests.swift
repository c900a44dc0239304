import Foundation
import RendererProvider
import Testing
import TestSupport

/// Optional content (what viewers call layers) on every backend: the document's list of groups
/// and configurations, and pages drawn with groups shown and hidden, held to each engine's own
/// tool drawing a copy whose default configuration has those groups so (pypdf makes it).
@Suite("Optional content, on every backend")
struct OptionalContentTests {
    /// layers.pdf (make-fixtures.sh): Red (shown), Blue (hidden by /D /OFF), Légende
    /// (shown, a UTF-16 name) and Orange (shown, left out of /Order); a black square in no layer.
    static let file = Fixtures.path("layers.pdf")
    /// The middle of each layer's rectangle and of the black square, in pixels at 36 dpi
    /// (page space, y down: 792 - y of the rectangle's middle, halved).
    static let red = (x: 86, y: 71), blue = (x: 86, y: 171), green = (x: 210, y: 71), orange = (x: 210, y: 171), black = (x: 61, y: 335)

    static func options(shown: Set<Int> = [], hidden: Set<Int> = []) -> RenderOptions {
        var options = RenderOptions(dpi: 36)
        options.optionalContent = OptionalContentVisibility(shown: shown, hidden: hidden)
        return options
    }

    /// Whether the pixel at `point` is the page's white.
    static func isWhite(_ bitmap: Bitmap, _ point: (x: Int, y: Int)) -> Bool {
        bitmap.pixel(x: point.x, y: point.y) == [255, 255, 255]
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func theListIsTheDocumentsInItsOrder(backend: String) throws {
        let document = try Fixtures.open("layers.pdf", backend: backend)
        let layers = try document.optionalContentGroups()
        #expect(layers.map(\.name) == ["Red", "Blue", "L\u{e9}gende", "Orange (not in Order)"])
        #expect(layers.map(\.index) == [0, 1, 2, 3])
        #expect(layers.map(\.isVisibleByDefault) == [true, false, true, true])
        #expect(try document.optionalContentConfigurations() == [
            OptionalContentConfiguration(name: "Default view", creator: "make-fixtures.sh", isDefault: true),
            OptionalContentConfiguration(name: "Everything", creator: nil, isDefault: false),
        ])
        let plain = try Fixtures.open("text.pdf", backend: backend)
        #expect(try plain.optionalContentGroups().isEmpty && plain.optionalContentConfigurations().isEmpty)
    }

    /// A book has no optional content: asking for its layers, or drawing with some, is
    /// `unsupported`, not an empty answer that hides the difference.
    @Test func aFormatWithoutLayersSaysSo() throws {
        let book = try Fixtures.open("book.epub", backend: "mupdf")
        #expect { try book.optionalContentGroups() } throws: { ($0 as? RendererError)?.code == .unsupported }
        #expect { try book.render(pageAt: 0, options: Self.options(hidden: [0])) } throws: { ($0 as? RendererError)?.code == .unsupported }
    }

    /// The default drawing follows the default configuration (/D): MuPDF 1.21 would take the
    /// first of /Configs, which shows Blue. A drawing with Red hidden and Blue shown has them
    /// so, and the next default drawing is the default again.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aDrawingShowsAndHidesWhatItIsAsked(backend: String) throws {
        let document = try Fixtures.open("layers.pdf", backend: backend)
        let plain = try document.render(pageAt: 0, options: Self.options())
        #expect(!Self.isWhite(plain, Self.red) && Self.isWhite(plain, Self.blue) && !Self.isWhite(plain, Self.green) && !Self.isWhite(plain, Self.orange))
        let swapped = try document.render(pageAt: 0, options: Self.options(shown: [1], hidden: [0]))
        #expect(Self.isWhite(swapped, Self.red) && !Self.isWhite(swapped, Self.blue) && !Self.isWhite(swapped, Self.green))
        #expect(!Self.isWhite(swapped, Self.black), "content in no layer stays")
        #expect(try document.render(pageAt: 0, options: Self.options()).bytes == plain.bytes)
    }

    /// The witness: each engine's tool draws a copy whose default configuration hides Red and
    /// shows Blue (and has no /Configs, which mutool would take instead); our drawing with
    /// those layers chosen has the same pixels.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aChosenDrawingIsTheToolsDrawingOfACopyWithThatDefault(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try await Self.copy(into: folder, named: "red-off.pdf", editing: """
            properties["/D"][NameObject("/OFF")] = ArrayObject([groups[0]])
            del properties["/Configs"]
            """)
        let witness = try await EngineTools.draw(backend: backend, file: copy, page: 1, dpi: 36, in: folder)
        let ours = try await Fixtures.open("layers.pdf", backend: backend).render(pageAt: 0, options: Self.options(shown: [1], hidden: [0]))
        #expect(ours.width == witness.width && ours.height == witness.height)
        let differing = zip(ours.bytes, witness.pixels).filter { abs(Int($0) - Int($1)) > 8 }.count
        #expect(differing == 0, "\(differing) channel values differ")
    }

    /// An /Order whose first item is a label (a string, with no group before it to name) is
    /// what poppler-glib's walk of the layers writes through a null pointer (22.12; found by
    /// the fuzzer). Opening and closing such a copy lists no layers through it; choosing a
    /// layer to draw is `damaged` with Poppler, and drawn with MuPDF; both the walk and the
    /// close would have ended the test process.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anOrderStartingWithALabelIsRefusedNotCrashedOn(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try await Self.copy(into: folder, named: "label-first.pdf", editing: """
            properties["/D"][NameObject("/Order")] = ArrayObject([TextStringObject("Colours"), *groups])
            """)
        do {
            let document = try await Fixtures.conformanceRegistry.open(.file(copy), renderer: .id(backend))
            #expect(try document.optionalContentGroups().count == 4)
        }
        let document = try await Fixtures.conformanceRegistry.open(.file(copy), renderer: .id(backend))
        let hidingRed = { try document.render(pageAt: 0, options: Self.options(hidden: [0])) }
        if Fixtures.engineID(backend) == "poppler" {
            #expect { try hidingRed() } throws: { ($0 as? RendererError)?.code == .damaged }
        } else {
            #expect(Self.isWhite(try hidingRed(), Self.red))
        }
    }

    /// An /Order that holds itself (an indirect array with its own reference inside) has no
    /// end to walk: listing the layers and drawing with one hidden end, and Poppler, whose
    /// check follows the nesting only so deep, answers `damaged` where poppler-glib's walk
    /// would recurse; MuPDF draws.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anOrderThatHoldsItselfEnds(backend: String) async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = try await Self.copy(into: folder, named: "order-loop.pdf", editing: """
            order = ArrayObject([*groups])
            reference = writer._add_object(order)
            order.append(reference)
            properties["/D"][NameObject("/Order")] = reference
            """)
        let listed = try await Tool.run("mutool", ["show", copy, "trailer/Root/OCProperties/D/Order"])
        // mutool shows the indirect array as `N 0 obj [ … N 0 R ] endobj`.
        let number = try #require(listed.text.split(separator: " ").first, "\(listed.text)")
        try #require(listed.text.hasPrefix("\(number) 0 obj") && listed.text.contains("\(number) 0 R ]"), "the copy's /Order holds itself: \(listed.text)")
        let document = try await Fixtures.conformanceRegistry.open(.file(copy), renderer: .id(backend))
        #expect(try document.optionalContentGroups().count == 4)
        let hidingRed = { try document.render(pageAt: 0, options: Self.options(hidden: [0])) }
        if Fixtures.engineID(backend) == "poppler" {
            #expect { try hidingRed() } throws: { ($0 as? RendererError)?.code == .damaged }
        } else {
            #expect(Self.isWhite(try hidingRed(), Self.red))
        }
    }

    /// A copy of `layers.pdf` in `folder`, made by pypdf with `edit`, Python that changes
    /// `properties` (the /OCProperties dictionary) and may use `groups` (its /OCGs); its path.
    static func copy(into folder: URL, named name: String, editing edit: String) async throws -> String {
        let copy = folder.appendingPathComponent(name).path
        let made = try await Tool.run("python3", ["-c", """
            import sys, pypdf
            from pypdf.generic import ArrayObject, NameObject, TextStringObject
            writer = pypdf.PdfWriter(clone_from=sys.argv[1])
            properties = writer._root_object["/OCProperties"]
            groups = properties["/OCGs"]
            \(edit)
            writer.write(sys.argv[2])
            """, Self.file, copy])
        try #require(made.status == 0, "pypdf failed: \(made.stderr)")
        return copy
    }

    /// A layer the document lacks, or one both shown and hidden, is refused before anything is
    /// drawn. poppler-glib reaches no layer that /Order leaves out: hiding Orange is
    /// `unsupported` there, done with MuPDF.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func whatCannotBeDrawnIsRefused(backend: String) throws {
        let document = try Fixtures.open("layers.pdf", backend: backend)
        for options in [Self.options(hidden: [4]), Self.options(shown: [-1]), Self.options(shown: [0], hidden: [0])] {
            #expect { try document.render(pageAt: 0, options: options) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        }
        let plain = try Fixtures.open("text.pdf", backend: backend)
        #expect { try plain.render(pageAt: 0, options: Self.options(hidden: [0])) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
        if Fixtures.engineID(backend) == "poppler" {
            #expect { try document.render(pageAt: 0, options: Self.options(hidden: [3])) } throws: { ($0 as? RendererError)?.code == .unsupported }
        } else {
            #expect(Self.isWhite(try document.render(pageAt: 0, options: Self.options(hidden: [3])), Self.orange))
        }
        #expect(!Self.isWhite(try document.render(pageAt: 0, options: Self.options()), Self.orange), "every layer is back to its default")
    }
}
