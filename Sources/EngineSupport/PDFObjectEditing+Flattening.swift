#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Flattening a form, written once over the PDF-object primitives: each page's widgets become
/// part of its content, then the widgets and the form go.
extension PDFObjectEditing {
    /// Draws each page's widgets into its content and removes them and the form. The
    /// appearance a widget shows (its `/AP` `/N`, or the state its `/AS` names there) becomes
    /// a form XObject of the page, placed on the widget's `/Rect` as ISO 32000-1 algorithm
    /// 12.5.5 places it; hidden and no-view widgets go undrawn, as do widgets without an
    /// appearance. The page's own content is put between `q` and `Q`, so that the drawing
    /// starts from default user space. Then the widgets leave the pages' `/Annots` and the
    /// AcroForm the catalog. An engine that keeps appearances of its own brings them into the
    /// objects first. Returns how many widgets were drawn.
    @discardableResult
    package func flattenWidgets() throws -> Int {
        var drawn = 0
        for page in try pageReferences() { drawn += try flattenWidgets(on: page) }
        try setEntry("AcroForm", of: try catalogReference(), to: nil)
        return drawn
    }

    /// Flattens the widgets of `page`; returns how many were drawn.
    private func flattenWidgets(on page: PDFReference) throws -> Int {
        let annotsPlace = try place(of: "Annots", in: .object(page))
        let annotations = try value(at: annotsPlace).items
        var widgets: [PDFObject] = []
        var kept: [PDFObject] = []
        for annotation in annotations {
            let dictionary = try resolved(annotation)
            if try resolved(dictionary["Subtype"]) == .name("Widget") { widgets.append(dictionary) } else { kept.append(annotation) }
        }
        guard !widgets.isEmpty else { return 0 }
        let xobjectsPlace = try pageResource("XObject", of: page)
        var xobjects: [String: PDFObject] = [:]
        if case .dictionary(let entries) = try value(at: xobjectsPlace) { xobjects = entries }
        var drawing = ""
        var drawn = 0
        var next = 0
        for widget in widgets {
            guard let appearance = try viewedAppearance(of: widget),
                let matrix = try placement(of: try object(appearance.number), on: try resolved(widget["Rect"]))
            else { continue }
            var name: String
            repeat {
                name = "FlatWidget\(next)"
                next += 1
            } while xobjects[name] != nil
            xobjects[name] = .reference(appearance)
            drawing += "q " + matrix.map { PDFObject.number($0).syntax }.joined(separator: " ") + " cm /\(name) Do Q\n"
            drawn += 1
        }
        try write(.dictionary(xobjects), at: xobjectsPlace)
        try drawOnPage(page, drawing)
        try write(.array(kept), at: annotsPlace)
        return drawn
    }

    /// The matrix `[a b c d e f]` that takes `appearance`'s `/BBox`, transformed by its
    /// `/Matrix`, onto `rect`; nil when either is empty.
    private func placement(of appearance: PDFObject, on rect: PDFObject) throws -> [Double]? {
        let box = try resolved(appearance["BBox"]).items.compactMap(\.number)
        let given = try resolved(appearance["Matrix"]).items.compactMap(\.number)
        let matrix = given.count == 6 ? given : [1, 0, 0, 1, 0, 0]
        let edges = try resolved(rect).items.compactMap(\.number)
        guard box.count == 4, edges.count == 4 else { return nil }
        let corners = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])].map { x, y in
            (matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5])
        }
        let (x0, x1) = (corners.map(\.0).min()!, corners.map(\.0).max()!)
        let (y0, y1) = (corners.map(\.1).min()!, corners.map(\.1).max()!)
        let (left, right) = (min(edges[0], edges[2]), max(edges[0], edges[2]))
        let (bottom, top) = (min(edges[1], edges[3]), max(edges[1], edges[3]))
        guard x1 - x0 > 0, y1 - y0 > 0, right > left, top > bottom else { return nil }
        let (sx, sy) = ((right - left) / (x1 - x0), (top - bottom) / (y1 - y0))
        return [sx, 0, 0, sy, left - x0 * sx, bottom - y0 * sy]
    }
}
