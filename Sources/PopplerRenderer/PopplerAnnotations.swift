import CPoppler
import Foundation
import RendererProvider

extension PopplerRenderer {
    /// What poppler-glib 22.12 offers: it creates no free text, ink, polygon or polyline;
    /// it reads no ink paths, line or vertex points, border width or creation time; it writes
    /// no subject, border width or dates (it stamps `/M` itself) and no `/NM`.
    static let annotations = AnnotationSupport(
        creatableKinds: [.text, .line, .square, .circle, .stamp, .highlight, .underline, .squiggly, .strikeOut],
        readableFields: [.rect, .quads, .color, .interiorColor, .opacity, .contents, .author, .subject, .modificationDate, .flags, .iconName],
        writableFields: [.rect, .quads, .points, .color, .interiorColor, .opacity, .contents, .author, .flags, .iconName],
        unsupportedFieldsByKind: [
            // Stamps, ink, polygons and polylines are not markup annotations in poppler-glib;
            // only squares and circles have an interior colour there.
            .stamp: [.opacity, .author, .subject, .interiorColor],
            .ink: [.opacity, .author, .subject], .polygon: [.opacity, .author, .subject, .interiorColor],
            .polyLine: [.opacity, .author, .subject, .interiorColor],
            .line: [.interiorColor], .text: [.interiorColor], .highlight: [.interiorColor], .underline: [.interiorColor],
            .squiggly: [.interiorColor], .strikeOut: [.interiorColor],
        ],
        writesNames: false,
        canRewrite: false)

    /// The standard stamp names (ISO 32000-1, table 181) Poppler knows, with its icon values.
    static let stampIcons: [(name: String, icon: PopplerAnnotStampIcon)] = [
        ("Approved", POPPLER_ANNOT_STAMP_ICON_APPROVED), ("AsIs", POPPLER_ANNOT_STAMP_ICON_AS_IS),
        ("Confidential", POPPLER_ANNOT_STAMP_ICON_CONFIDENTIAL), ("Final", POPPLER_ANNOT_STAMP_ICON_FINAL),
        ("Experimental", POPPLER_ANNOT_STAMP_ICON_EXPERIMENTAL), ("Expired", POPPLER_ANNOT_STAMP_ICON_EXPIRED),
        ("NotApproved", POPPLER_ANNOT_STAMP_ICON_NOT_APPROVED),
        ("NotForPublicRelease", POPPLER_ANNOT_STAMP_ICON_NOT_FOR_PUBLIC_RELEASE),
        ("Sold", POPPLER_ANNOT_STAMP_ICON_SOLD), ("Departmental", POPPLER_ANNOT_STAMP_ICON_DEPARTMENTAL),
        ("ForComment", POPPLER_ANNOT_STAMP_ICON_FOR_COMMENT),
        ("ForPublicRelease", POPPLER_ANNOT_STAMP_ICON_FOR_PUBLIC_RELEASE),
        ("TopSecret", POPPLER_ANNOT_STAMP_ICON_TOP_SECRET),
    ]

    /// The PDF subtype name for each poppler-glib annotation type.
    static let subtypes: [PopplerAnnotType: String] = [
        POPPLER_ANNOT_TEXT: "Text", POPPLER_ANNOT_LINK: "Link", POPPLER_ANNOT_FREE_TEXT: "FreeText",
        POPPLER_ANNOT_LINE: "Line", POPPLER_ANNOT_SQUARE: "Square", POPPLER_ANNOT_CIRCLE: "Circle",
        POPPLER_ANNOT_POLYGON: "Polygon", POPPLER_ANNOT_POLY_LINE: "PolyLine", POPPLER_ANNOT_HIGHLIGHT: "Highlight",
        POPPLER_ANNOT_UNDERLINE: "Underline", POPPLER_ANNOT_SQUIGGLY: "Squiggly", POPPLER_ANNOT_STRIKE_OUT: "StrikeOut",
        POPPLER_ANNOT_STAMP: "Stamp", POPPLER_ANNOT_CARET: "Caret", POPPLER_ANNOT_INK: "Ink", POPPLER_ANNOT_POPUP: "Popup",
        POPPLER_ANNOT_FILE_ATTACHMENT: "FileAttachment", POPPLER_ANNOT_SOUND: "Sound", POPPLER_ANNOT_MOVIE: "Movie",
        POPPLER_ANNOT_WIDGET: "Widget", POPPLER_ANNOT_SCREEN: "Screen", POPPLER_ANNOT_PRINTER_MARK: "PrinterMark",
        POPPLER_ANNOT_TRAP_NET: "TrapNet", POPPLER_ANNOT_WATERMARK: "Watermark", POPPLER_ANNOT_3D: "3D",
    ]
}

extension PopplerPage {
    func annotations() throws -> [Annotation] {
        let space = try annotationSpace()
        return withListedAnnotations { listed in
            let ids = ids(of: listed)
            return zip(listed, ids).map { annotation($0, id: $1, space: space).withImpliedFlags() }
        }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        let space = try annotationSpace()
        let created = try create(annotation, space: space)
        defer { g_object_unref(UnsafeMutableRawPointer(created)) }
        try apply(annotation, to: created, space: space)
        var keys = withListedAnnotations { ids(of: $0) }
        poppler_page_add_annot(handle, created)
        if !annotation.kind.hasDerivedRect { place(created, at: annotation.rect, space: space) }
        // Poppler cannot write /NM: the new annotation is known by its positional key.
        let ordinal = withListedAnnotations { listed in listed.filter { kind(of: $0) == annotation.kind }.count }
        var key = AnnotationIdentity.positionalKey(pageIndex: index, kind: annotation.kind, ordinal: ordinal)
        var next = ordinal
        while keys.contains(key) {
            next += 1
            key = AnnotationIdentity.positionalKey(pageIndex: index, kind: annotation.kind, ordinal: next)
        }
        keys.append(key)
        document.annotationKeys[index] = keys
        return try stored(key)
    }

    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let space = try annotationSpace()
        try withAnnotation(annotation.id) { annot in
            try apply(annotation, to: annot, space: space)
            if !annotation.kind.hasDerivedRect { place(annot, at: annotation.rect, space: space) }
        }
        return try stored(annotation.id)
    }

    func removeAnnotation(id: String) throws {
        var keys = withListedAnnotations { ids(of: $0) }
        guard let position = keys.firstIndex(of: id) else { throw Self.missing(id, page: index) }
        try withAnnotation(id) { poppler_page_remove_annot(handle, $0) }
        keys.remove(at: position)
        document.annotationKeys[index] = keys
    }

    func pageSpace() throws -> PageSpace {
        guard let space = document.pageSpace(ofPage: index) else {
            throw RendererError(.damaged, "Poppler could not load page \(index + 1)", backend: PopplerErrors.backend)
        }
        return space
    }

    // MARK: Identity

    /// The identities of the listed annotations: those this document gave them while open,
    /// else computed from their names, kinds and places.
    private func ids(of listed: [OpaquePointer]) -> [String] {
        if let keys = document.annotationKeys[index], keys.count == listed.count { return keys }
        let keys = AnnotationIdentity.ids(pageIndex: index, of: listed.map { (Self.take(poppler_annot_get_name($0)), kind(of: $0)) })
        document.annotationKeys[index] = keys
        return keys
    }

    private func stored(_ id: String) throws -> Annotation {
        guard let found = try annotations().first(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        return found
    }

    private func withAnnotation<T>(_ id: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        try withListedAnnotations { listed in
            guard let position = ids(of: listed).firstIndex(of: id) else { throw Self.missing(id, page: index) }
            return try body(listed[position])
        }
    }

    /// Calls `body` with the page's annotations in `/Annots` order, without links and popups.
    private func withListedAnnotations<T>(_ body: ([OpaquePointer]) throws -> T) rethrows -> T {
        let list = poppler_page_get_annot_mapping(handle)
        defer { poppler_page_free_annot_mapping(list) }
        var listed: [OpaquePointer] = []
        var node = list
        while let current = node {
            let mapping = current.pointee.data.assumingMemoryBound(to: PopplerAnnotMapping.self)
            if let annot = mapping.pointee.annot {
                let type = poppler_annot_get_annot_type(annot)
                if type != POPPLER_ANNOT_LINK && type != POPPLER_ANNOT_POPUP { listed.append(annot) }
            }
            node = current.pointee.next
        }
        return try body(listed)
    }

    private static func missing(_ id: String, page: Int) -> RendererError {
        RendererError(.invalidArgument, "there is no annotation \"\(id)\" on page \(page + 1)", backend: PopplerErrors.backend)
    }

    // MARK: Reading

    private func kind(of annot: OpaquePointer) -> AnnotationKind {
        AnnotationKind(rawValue: PopplerRenderer.subtypes[poppler_annot_get_annot_type(annot)] ?? "Unknown")
    }

    private func annotation(_ annot: OpaquePointer, id: String, space: AnnotationSpace) -> Annotation {
        let kind = kind(of: annot)
        let type = poppler_annot_get_annot_type(annot)
        var rect = PopplerRectangle()
        poppler_annot_get_rectangle(annot, &rect)
        var result = Annotation(
            id: id, kind: kind, pageIndex: index, rect: space.pageRect(rect),
            color: Self.color(poppler_annot_get_color(annot)),
            contents: Self.take(poppler_annot_get_contents(annot)),
            modificationDate: Self.take(poppler_annot_get_modified(annot)).flatMap(PDFDate.parse),
            flags: AnnotationFlags(rawValue: Int(poppler_annot_get_flags(annot).rawValue)))
        if Self.isMarkup(annot) {
            result.opacity = poppler_annot_markup_get_opacity(annot)
            result.author = Self.take(poppler_annot_markup_get_label(annot))
            result.subject = Self.take(poppler_annot_markup_get_subject(annot))
        }
        if kind.isTextMarkup, let quads = poppler_annot_text_markup_get_quadrilaterals(annot) {
            defer { g_array_unref(quads) }
            let items = quads.pointee.data.withMemoryRebound(to: PopplerQuadrilateral.self, capacity: Int(quads.pointee.len)) {
                Array(UnsafeBufferPointer(start: $0, count: Int(quads.pointee.len)))
            }
            result.quads = items.map(space.pageQuad)
        }
        switch type {
        case POPPLER_ANNOT_SQUARE: result.interiorColor = Self.color(poppler_annot_square_get_interior_color(annot))
        case POPPLER_ANNOT_CIRCLE: result.interiorColor = Self.color(poppler_annot_circle_get_interior_color(annot))
        case POPPLER_ANNOT_TEXT: result.iconName = Self.take(poppler_annot_text_get_icon(annot))
        case POPPLER_ANNOT_STAMP:
            let icon = poppler_annot_stamp_get_icon(annot)
            result.iconName = PopplerRenderer.stampIcons.first { $0.icon == icon }?.name
        default: break
        }
        return result
    }

    private static func isMarkup(_ annot: OpaquePointer) -> Bool {
        let instance = UnsafeMutableRawPointer(annot).assumingMemoryBound(to: GTypeInstance.self)
        return g_type_check_instance_is_a(instance, poppler_annot_markup_get_type()) != 0
    }

    private static func color(_ color: UnsafeMutablePointer<PopplerColor>?) -> Color? {
        guard let color else { return nil }
        defer { g_free(color) }
        return Color(red: Double(color.pointee.red) / 65535, green: Double(color.pointee.green) / 65535, blue: Double(color.pointee.blue) / 65535)
    }

    /// A string Poppler allocated, freed here; nil when absent or empty.
    private static func take(_ text: UnsafeMutablePointer<gchar>?) -> String? {
        guard let text else { return nil }
        defer { g_free(text) }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }

    // MARK: Writing

    private func create(_ annotation: Annotation, space: AnnotationSpace) throws -> OpaquePointer {
        let doc = document.handle
        var rect = space.displayedRect(annotation.kind.isTextMarkup ? PageRect.enclosing(annotation.quads.map(\.bounds)) : annotation.rect)
        let created: OpaquePointer?
        switch annotation.kind {
        case .text: created = poppler_annot_text_new(doc, &rect)
        case .square: created = poppler_annot_square_new(doc, &rect)
        case .circle: created = poppler_annot_circle_new(doc, &rect)
        case .stamp: created = poppler_annot_stamp_new(doc, &rect)
        case .line:
            var start = space.userPoint(annotation.points[0]), end = space.userPoint(annotation.points[1])
            rect = space.displayedRect(PageRect.enclosing(annotation.points.map { PageRect(origin: $0, size: PageSize(width: 0, height: 0)) }))
            created = poppler_annot_line_new(doc, &rect, &start, &end)
        case .highlight, .underline, .squiggly, .strikeOut:
            let quads = space.displayedQuads(annotation.quads)
            defer { g_array_unref(quads) }
            switch annotation.kind {
            case .highlight: created = poppler_annot_text_markup_new_highlight(doc, &rect, quads)
            case .underline: created = poppler_annot_text_markup_new_underline(doc, &rect, quads)
            case .squiggly: created = poppler_annot_text_markup_new_squiggly(doc, &rect, quads)
            default: created = poppler_annot_text_markup_new_strikeout(doc, &rect, quads)
            }
        default: created = nil
        }
        guard let created else {
            throw RendererError(.unsupported, "Poppler cannot create \(annotation.kind) annotations", backend: PopplerErrors.backend)
        }
        return created
    }

    private func apply(_ annotation: Annotation, to annot: OpaquePointer, space: AnnotationSpace) throws {
        let type = poppler_annot_get_annot_type(annot)
        if !annotation.kind.hasDerivedRect {
            var rect = space.displayedRect(annotation.rect)
            poppler_annot_set_rectangle(annot, &rect)
        }
        if annotation.kind.isTextMarkup {
            let quads = space.displayedQuads(annotation.quads)
            defer { g_array_unref(quads) }
            poppler_annot_text_markup_set_quadrilaterals(annot, quads)
        }
        if type == POPPLER_ANNOT_LINE, annotation.points.count == 2 {
            var start = space.userPoint(annotation.points[0]), end = space.userPoint(annotation.points[1])
            poppler_annot_line_set_vertices(annot, &start, &end)
        }
        var color = annotation.color.map(Self.popplerColor)
        withOptionalPointer(&color) { poppler_annot_set_color(annot, $0) }
        var interior = annotation.interiorColor.map(Self.popplerColor)
        switch type {
        case POPPLER_ANNOT_SQUARE: withOptionalPointer(&interior) { poppler_annot_square_set_interior_color(annot, $0) }
        case POPPLER_ANNOT_CIRCLE: withOptionalPointer(&interior) { poppler_annot_circle_set_interior_color(annot, $0) }
        default: break
        }
        switch (type, annotation.iconName) {
        case (POPPLER_ANNOT_TEXT, let name?): poppler_annot_text_set_icon(annot, name)
        case (POPPLER_ANNOT_STAMP, let name?):
            guard let icon = PopplerRenderer.stampIcons.first(where: { $0.name == name })?.icon else {
                throw RendererError(
                    .invalidArgument, "Poppler knows only the standard stamp names (\(PopplerRenderer.stampIcons.map(\.name).joined(separator: ", "))), not \(name)",
                    backend: PopplerErrors.backend)
            }
            poppler_annot_stamp_set_icon(annot, icon)
        default: break
        }
        poppler_annot_set_contents(annot, annotation.contents)
        if Self.isMarkup(annot) {
            poppler_annot_markup_set_label(annot, annotation.author)
            poppler_annot_markup_set_opacity(annot, annotation.opacity)
        }
        poppler_annot_set_flags(annot, PopplerAnnotFlag(rawValue: UInt32(annotation.flags.rawValue)))
    }

    /// Moves the annotation so that its rectangle is `rect`. Poppler anchors text notes on
    /// rotated pages at another corner than the one it is given (they do not turn with the
    /// page), so the rectangle is read back and the difference corrected once.
    private func place(_ annot: OpaquePointer, at rect: PageRect, space: AnnotationSpace) {
        var stored = PopplerRectangle()
        poppler_annot_get_rectangle(annot, &stored)
        let got = space.pageRect(stored)
        let (dx, dy) = (rect.minX - got.minX, rect.minY - got.minY)
        guard abs(dx) > 0.01 || abs(dy) > 0.01 else { return }
        var moved = space.displayedRect(rect)
        moved.x1 += dx
        moved.x2 += dx
        moved.y1 -= dy
        moved.y2 -= dy
        poppler_annot_set_rectangle(annot, &moved)
    }

    private func withOptionalPointer<T>(_ value: inout T?, _ body: (UnsafeMutablePointer<T>?) -> Void) {
        if value == nil {
            body(nil)
        } else {
            var unwrapped = value!
            body(&unwrapped)
        }
    }

    private static func popplerColor(_ color: Color) -> PopplerColor {
        func channel(_ v: Double) -> guint16 { guint16((min(max(v, 0), 1) * 65535).rounded()) }
        return PopplerColor(red: channel(color.red), green: channel(color.green), blue: channel(color.blue))
    }

    private func annotationSpace() throws -> AnnotationSpace {
        AnnotationSpace(page: try pageSpace())
    }
}

/// Converts annotation geometry between page space and the conventions of poppler-glib
/// 22.12, which are not the same for reading and writing (measured on rotated and cropped
/// pages): getters give user space less the crop box's lower-left corner, unrotated; the
/// rectangle and quad setters take the displayed (rotated) page's coordinates, y up from its
/// bottom-left corner; a line's end points are plain user space.
struct AnnotationSpace {
    let page: PageSpace

    func pagePoint(_ p: PopplerPoint) -> PagePoint {
        page.point(x: p.x + page.cropBox.x0, y: p.y + page.cropBox.y0)
    }

    func pageRect(_ r: PopplerRectangle) -> PageRect {
        page.rect(UserRect(x0: r.x1 + page.cropBox.x0, y0: r.y1 + page.cropBox.y0, x1: r.x2 + page.cropBox.x0, y1: r.y2 + page.cropBox.y0))
    }

    func pageQuad(_ q: PopplerQuadrilateral) -> Quad {
        Quad(upperLeft: pagePoint(q.p1), upperRight: pagePoint(q.p2), lowerLeft: pagePoint(q.p3), lowerRight: pagePoint(q.p4))
    }

    /// The height of the page as displayed.
    private var displayedHeight: Double {
        let box = page.cropBox
        return page.rotation == .quarter || page.rotation == .threeQuarters ? box.x1 - box.x0 : box.y1 - box.y0
    }

    /// A point as the rectangle and quad setters take it.
    func displayedPoint(_ p: PagePoint) -> PopplerPoint {
        PopplerPoint(x: p.x, y: displayedHeight - p.y)
    }

    /// A line end point as the line setters take it.
    func userPoint(_ p: PagePoint) -> PopplerPoint {
        let user = page.userPoint(p)
        return PopplerPoint(x: user.x, y: user.y)
    }

    /// A rectangle as the rectangle setters take it.
    func displayedRect(_ r: PageRect) -> PopplerRectangle {
        let a = displayedPoint(r.origin), b = displayedPoint(PagePoint(x: r.maxX, y: r.maxY))
        return PopplerRectangle(x1: min(a.x, b.x), y1: min(a.y, b.y), x2: max(a.x, b.x), y2: max(a.y, b.y))
    }

    /// A new GArray of quads as the quad setters take them; unreference it after use.
    func displayedQuads(_ quads: [Quad]) -> UnsafeMutablePointer<GArray> {
        var items = quads.map {
            PopplerQuadrilateral(
                p1: displayedPoint($0.upperLeft), p2: displayedPoint($0.upperRight),
                p3: displayedPoint($0.lowerLeft), p4: displayedPoint($0.lowerRight))
        }
        let array = g_array_sized_new(0, 0, guint(MemoryLayout<PopplerQuadrilateral>.stride), guint(items.count))!
        g_array_append_vals(array, &items, guint(items.count))
        return array
    }
}
