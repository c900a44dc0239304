import CPopplerCpp
import Foundation
import RendererProvider

extension PopplerRenderer {
    /// Through Poppler's core API, Poppler creates every kind the API knows and reads and
    /// writes every field.
    static let annotations = AnnotationSupport.complete
}

extension PopplerPage {
    func annotations() throws -> [Annotation] {
        let space = try pageSpace()
        return try withRawAnnotations { raw in
            let ids = AnnotationIdentity.ids(pageIndex: index, of: raw.map { (Self.string($0.name), Self.kind(of: $0)) })
            return zip(raw, ids).map { Self.annotation($0, id: $1, pageIndex: index, space: space).withImpliedFlags() }
        }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        let space = try pageSpace()
        let status = try Self.withRawValues(of: annotation, space: space) { cpoppler_core_create_annot(try document.core().handle, Int32(index), $0) }
        try check(status, doing: "add a \(annotation.kind) annotation to page \(index + 1)")
        return try stored(annotation.id)
    }

    /// Writes the annotation's identity as its `/NM`, so a positional key stays its name.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let position = try position(of: annotation.id)
        let space = try pageSpace()
        let status = try Self.withRawValues(of: annotation, space: space) {
            cpoppler_core_update_annot(try document.core().handle, Int32(index), Int32(position), $0)
        }
        try check(status, doing: "change annotation \"\(annotation.id)\"")
        return try stored(annotation.id)
    }

    /// Before removing, names the page's other annotations of the same kind that are known
    /// by a positional key, so that their identities do not move.
    func removeAnnotation(id: String) throws {
        let current = try annotations()
        guard let position = current.firstIndex(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        let core = try document.core().handle
        let names = try withRawAnnotations { raw in raw.map { Self.string($0.name) } }
        for (other, annotation) in current.enumerated()
        where other != position && annotation.kind == current[position].kind && names[other] != annotation.id {
            try check(cpoppler_core_name_annot(core, Int32(index), Int32(other), annotation.id), doing: "name annotation \"\(annotation.id)\"")
        }
        try check(cpoppler_core_delete_annot(core, Int32(index), Int32(position)), doing: "remove annotation \"\(id)\"")
    }

    func pageSpace() throws -> PageSpace {
        guard let space = document.pageSpace(ofPage: index) else {
            throw RendererError(.damaged, "Poppler could not load page \(index + 1)", backend: PopplerErrors.backend)
        }
        return space
    }

    private func stored(_ id: String) throws -> Annotation {
        guard let found = try annotations().first(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        return found
    }

    private func position(of id: String) throws -> Int {
        guard let position = try annotations().firstIndex(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        return position
    }

    private func withRawAnnotations<T>(_ body: (UnsafeBufferPointer<cpoppler_annot>) throws -> T) throws -> T {
        var list: UnsafeMutablePointer<cpoppler_annot>?
        let count = cpoppler_core_page_annots(try document.core().handle, Int32(index), &list)
        guard count >= 0 else {
            throw RendererError(.damaged, "Poppler could not read the annotations of page \(index + 1)", backend: PopplerErrors.backend)
        }
        defer { cpoppler_annots_free(list, count) }
        return try body(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    /// Throws for a failed edit; after a successful one, marks the document changed.
    private func check(_ status: cpoppler_status, doing action: String) throws {
        let reason: String
        let code: RendererError.Code
        switch status {
        case CPOPPLER_OK:
            document.annotationsChanged()
            return
        case CPOPPLER_NO_PAGE: (code, reason) = (.damaged, "the page cannot be loaded")
        case CPOPPLER_NO_ANNOTATION: (code, reason) = (.invalidArgument, "there is no such annotation")
        case CPOPPLER_UNSUPPORTED: (code, reason) = (.unsupported, "Poppler cannot do that with this kind of annotation")
        case CPOPPLER_ARGUMENT: (code, reason) = (.invalidArgument, "a field is set that this kind of annotation cannot have")
        default: (code, reason) = (.limitExceeded, "out of memory")
        }
        throw RendererError(code, "Poppler could not \(action): \(reason)", backend: PopplerErrors.backend)
    }

    private static func missing(_ id: String, page: Int) -> RendererError {
        RendererError(.invalidArgument, "there is no annotation \"\(id)\" on page \(page + 1)", backend: PopplerErrors.backend)
    }

    // MARK: Between C and Swift

    /// The C string as a Swift string; nil when absent or empty.
    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }

    private static func kind(of raw: cpoppler_annot) -> AnnotationKind {
        var subtype = raw.subtype
        let name = withUnsafeBytes(of: &subtype) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return AnnotationKind(rawValue: name)
    }

    private static func annotation(_ raw: cpoppler_annot, id: String, pageIndex: Int, space: PageSpace) -> Annotation {
        func point(_ values: UnsafeMutablePointer<Double>, _ i: Int) -> PagePoint {
            space.point(x: values[2 * i], y: values[2 * i + 1])
        }
        let quads = (0..<Int(raw.quad_count)).map { i in
            let base = raw.quads! + 8 * i
            return Quad(upperLeft: point(base, 0), upperRight: point(base, 1), lowerLeft: point(base, 2), lowerRight: point(base, 3))
        }
        var inkPaths: [[PagePoint]] = []
        var next = 0
        for path in 0..<Int(raw.ink_path_count) {
            let count = Int(raw.ink_counts[path])
            inkPaths.append((next..<next + count).map { point(raw.ink!, $0) })
            next += count
        }
        let points = (0..<Int(raw.point_count)).map { point(raw.points!, $0) }
        return Annotation(
            id: id, kind: kind(of: raw), pageIndex: pageIndex,
            rect: space.rect(UserRect(x0: raw.rect.0, y0: raw.rect.1, x1: raw.rect.2, y1: raw.rect.3)),
            quads: quads, inkPaths: inkPaths, points: points,
            color: Color(pdfComponents: components(raw.color, count: raw.color_n)),
            interiorColor: Color(pdfComponents: components(raw.interior, count: raw.interior_n)),
            opacity: raw.opacity,
            borderWidth: raw.has_border != 0 ? raw.border : nil,
            contents: string(raw.contents), author: string(raw.author), subject: string(raw.subject),
            creationDate: string(raw.created).flatMap(PDFDate.parse),
            modificationDate: string(raw.modified).flatMap(PDFDate.parse),
            flags: AnnotationFlags(rawValue: Int(raw.flags)), iconName: string(raw.icon))
    }

    /// The first `count` of a C array of four components.
    private static func components(_ tuple: (Double, Double, Double, Double), count: Int32) -> [Double] {
        Array([tuple.0, tuple.1, tuple.2, tuple.3].prefix(Int(count)))
    }

    /// Calls `body` with the annotation's fields as a C struct in user space, valid during the call.
    private static func withRawValues<T>(
        of annotation: Annotation, space: PageSpace, _ body: (UnsafePointer<cpoppler_annot>) throws -> T
    ) throws -> T {
        guard let raw = calloc(1, MemoryLayout<cpoppler_annot>.stride)?.assumingMemoryBound(to: cpoppler_annot.self) else {
            throw RendererError(.limitExceeded, "out of memory", backend: PopplerErrors.backend)
        }
        defer { cpoppler_annots_free(raw, 1) }
        func doubles(_ values: [Double]) -> UnsafeMutablePointer<Double> {
            let buffer = malloc(max(1, values.count) * MemoryLayout<Double>.stride)!.assumingMemoryBound(to: Double.self)
            for (i, value) in values.enumerated() { buffer[i] = value }
            return buffer
        }
        func coordinates(_ points: [PagePoint]) -> [Double] {
            points.flatMap { point in
                let user = space.userPoint(point)
                return [user.x, user.y]
            }
        }
        func copy(_ text: String?) -> UnsafeMutablePointer<CChar>? { text.map { strdup($0) } }

        raw.pointee.name = copy(annotation.id)
        withUnsafeMutableBytes(of: &raw.pointee.subtype) { bytes in
            for (i, byte) in annotation.kind.rawValue.utf8.prefix(31).enumerated() { bytes[i] = byte }
        }
        let r = space.userRect(annotation.rect)
        raw.pointee.rect = (r.x0, r.y0, r.x1, r.y1)
        raw.pointee.quads = doubles(annotation.quads.flatMap { coordinates([$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight]) })
        raw.pointee.quad_count = Int32(annotation.quads.count)
        raw.pointee.ink = doubles(coordinates(annotation.inkPaths.flatMap { $0 }))
        let counts = malloc(max(1, annotation.inkPaths.count) * MemoryLayout<Int32>.stride)!.assumingMemoryBound(to: Int32.self)
        for (i, path) in annotation.inkPaths.enumerated() { counts[i] = Int32(path.count) }
        raw.pointee.ink_counts = counts
        raw.pointee.ink_path_count = Int32(annotation.inkPaths.count)
        raw.pointee.points = doubles(coordinates(annotation.points))
        raw.pointee.point_count = Int32(annotation.points.count)
        if let color = annotation.color {
            raw.pointee.color_n = 3
            raw.pointee.color = (color.red, color.green, color.blue, 0)
        }
        if let color = annotation.interiorColor {
            raw.pointee.interior_n = 3
            raw.pointee.interior = (color.red, color.green, color.blue, 0)
        }
        raw.pointee.opacity = annotation.opacity
        if let width = annotation.borderWidth {
            raw.pointee.has_border = 1
            raw.pointee.border = width
        }
        raw.pointee.contents = copy(annotation.contents)
        raw.pointee.author = copy(annotation.author)
        raw.pointee.subject = copy(annotation.subject)
        raw.pointee.icon = copy(annotation.iconName)
        raw.pointee.created = copy(annotation.creationDate.map(PDFDate.string(from:)))
        raw.pointee.modified = copy(annotation.modificationDate.map(PDFDate.string(from:)))
        raw.pointee.flags = Int32(annotation.flags.rawValue)
        return try body(raw)
    }
}
