#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Drawings laid onto pages (``PageOverlays``), written once over the PDF-object primitives
/// for every engine: each a form XObject with resources of its own, so that its names never
/// meet the page's.
extension PDFObjectEditing {
    /// Writes `overlays`: the fonts once, then each page's drawing as a form XObject over
    /// the page's crop box, drawn after the page's content (``PageOverlay/Placement/over``),
    /// before it (``PageOverlay/Placement/behind``) or as the appearance of a printing
    /// `/Watermark` annotation.
    package func writeOverlays(_ overlays: PageOverlays) throws {
        let pages = try pageReferences()
        let fonts = try overlays.fonts.map { font in
            try font.writeType0(add: { try addObject($0) }, addStream: { try addStream(.dictionary($0), contents: $1) })
        }
        let fontResources = PDFObject.dictionary(Dictionary(uniqueKeysWithValues: fonts.enumerated().map { ("F\($0.offset)", PDFObject.reference($0.element)) }))
        for overlay in overlays.overlays {
            guard pages.indices.contains(overlay.pageIndex) else {
                throw RendererError(.pageOutOfRange, "page index \(overlay.pageIndex) is out of range", rendererID: rendererID)
            }
            let page = pages[overlay.pageIndex]
            let box = try loadPage(at: overlay.pageIndex).pageSpace().cropBox
            let bounds = PDFObject.array([box.x0, box.y0, box.x1, box.y1].map(PDFObject.number))
            let form = try addStream(.dictionary([
                "Type": .name("XObject"), "Subtype": .name("Form"), "BBox": bounds,
                "Resources": .dictionary([
                    "Font": fontResources,
                    "ExtGState": .dictionary(["GS0": .dictionary(["Type": .name("ExtGState"), "ca": .number(overlay.opacity), "CA": .number(overlay.opacity)])]),
                ]),
            ]), contents: overlay.contents)
            switch overlay.placement {
            case .over, .behind:
                let name = try addPageResource("XObject", named: "Overlay", .reference(form), to: page)
                try drawOnPage(page, "q /\(name) Do Q\n", behind: overlay.placement == .behind)
            case .annotation:
                let annotation = try addObject(.dictionary([
                    "Type": .name("Annot"), "Subtype": .name("Watermark"), "Rect": bounds, "F": .integer(4),
                    "P": .reference(page), "AP": .dictionary(["N": .reference(form)]),
                ]))
                try appendAnnotation(annotation, toPage: overlay.pageIndex)
            }
        }
    }

    /// Adds `resource` to `page`'s own resources of `kind` under a name that begins with
    /// `prefix` and no other resource there has; returns the name.
    package func addPageResource(_ kind: String, named prefix: String, _ resource: PDFObject, to page: PDFReference) throws -> String {
        let place = try pageResource(kind, of: page)
        var entries: [String: PDFObject] = [:]
        if case .dictionary(let existing) = try value(at: place) { entries = existing }
        var name = prefix
        var next = 0
        while entries[name] != nil {
            next += 1
            name = "\(prefix)\(next)"
        }
        entries[name] = resource
        try write(.dictionary(entries), at: place)
        return name
    }

    /// Adds `drawing` (content stream operators) to `page`'s content: after it, the page's
    /// own content put between `q` and `Q` so that nothing it leaves set reaches the drawing,
    /// or, `behind`, before it.
    package func drawOnPage(_ page: PDFReference, _ drawing: String, behind: Bool = false) throws {
        let own = try contentStreams(of: try object(page.number))
        if behind {
            let under = try addStream(.dictionary([:]), contents: Data(drawing.utf8))
            try setEntry("Contents", of: page, to: .array([.reference(under)] + own))
        } else {
            let before = try addStream(.dictionary([:]), contents: Data("q\n".utf8))
            let after = try addStream(.dictionary([:]), contents: Data(("Q\n" + drawing).utf8))
            try setEntry("Contents", of: page, to: .array([.reference(before)] + own + [.reference(after)]))
        }
    }
}
