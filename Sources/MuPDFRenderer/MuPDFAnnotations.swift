import CMuPDF
import Foundation
import RendererProvider

extension MuPDFRenderer {
    /// MuPDF creates every kind the API knows and reads and writes every field.
    static let annotations = AnnotationSupport.complete
}

extension MuPDFPage {
    func annotations() throws -> [Annotation] {
        try withRawAnnotations { raw in
            let ids = AnnotationIdentity.ids(pageIndex: index, of: raw.map { (Self.string($0.name), Self.kind(of: $0)) })
            return zip(raw, ids).map { Self.annotation($0, id: $1, pageIndex: index).withImpliedFlags() }
        }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        var error = cmupdf_error()
        let ok = try Self.withRawValues(of: annotation) { cmupdf_create_annot(document.handle, handle, $0, &error) }
        guard ok != 0 else { throw Self.editFailure(error, doing: "add a \(annotation.kind) annotation to page \(index + 1)") }
        return try stored(annotation.id)
    }

    /// Writes the annotation's identity as its `/NM`, so a positional key stays its name.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        let position = try position(of: annotation.id)
        var error = cmupdf_error()
        let ok = try Self.withRawValues(of: annotation) { cmupdf_update_annot(document.handle, handle, Int32(position), $0, &error) }
        guard ok != 0 else { throw Self.editFailure(error, doing: "change annotation \"\(annotation.id)\"") }
        return try stored(annotation.id)
    }

    /// Before removing, names the page's other annotations of the same kind that are known
    /// by a positional key, so that their identities do not move.
    func removeAnnotation(id: String) throws {
        let current = try annotations()
        guard let position = current.firstIndex(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        var error = cmupdf_error()
        let names = try withRawAnnotations { raw in raw.map { Self.string($0.name) } }
        for (other, annotation) in current.enumerated()
        where other != position && annotation.kind == current[position].kind && names[other] != annotation.id {
            guard cmupdf_name_annot(document.handle, handle, Int32(other), annotation.id, &error) != 0 else {
                throw Self.editFailure(error, doing: "name annotation \"\(annotation.id)\"")
            }
        }
        guard cmupdf_delete_annot(document.handle, handle, Int32(position), &error) != 0 else {
            throw Self.editFailure(error, doing: "remove annotation \"\(id)\"")
        }
    }

    func pageSpace() throws -> PageSpace {
        var box: (Float, Float, Float, Float) = (0, 0, 0, 0)
        var rotation: Int32 = 0
        var error = cmupdf_error()
        let ok = withUnsafeMutableBytes(of: &box) {
            cmupdf_page_space(document.handle, handle, $0.baseAddress!.assumingMemoryBound(to: Float.self), &rotation, &error)
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "measure page \(index + 1)", code: .damaged) }
        return PageSpace(
            cropBox: UserRect(x0: Double(box.0), y0: Double(box.1), x1: Double(box.2), y1: Double(box.3)),
            rotation: PageRotation(degrees: Int(rotation)) ?? .none)
    }

    private func stored(_ id: String) throws -> Annotation {
        guard let found = try annotations().first(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        return found
    }

    private func position(of id: String) throws -> Int {
        guard let position = try annotations().firstIndex(where: { $0.id == id }) else { throw Self.missing(id, page: index) }
        return position
    }

    private func withRawAnnotations<T>(_ body: (UnsafeBufferPointer<cmupdf_annot>) throws -> T) throws -> T {
        var list: UnsafeMutablePointer<cmupdf_annot>?
        var error = cmupdf_error()
        let count = cmupdf_page_annots(document.handle, handle, &list, &error)
        guard count >= 0 else { throw MuPDFErrors.translate(error, doing: "read the annotations of page \(index + 1)", code: .damaged) }
        defer { cmupdf_annots_free(list, count) }
        return try body(UnsafeBufferPointer(start: list, count: Int(count)))
    }

    private static func missing(_ id: String, page: Int) -> RendererError {
        RendererError(.invalidArgument, "there is no annotation \"\(id)\" on page \(page + 1)", backend: MuPDFErrors.backend)
    }

    private static func editFailure(_ error: cmupdf_error, doing action: String) -> RendererError {
        MuPDFErrors.translate(error, doing: action, code: .invalidArgument)
    }

    // MARK: Between C and Swift

    /// The C string as a Swift string; nil when absent or empty.
    private static func string(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
        guard let pointer, pointer.pointee != 0 else { return nil }
        return String(cString: pointer)
    }

    private static func kind(of raw: cmupdf_annot) -> AnnotationKind {
        var subtype = raw.subtype
        let name = withUnsafeBytes(of: &subtype) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
        return AnnotationKind(rawValue: name)
    }

    private static func annotation(_ raw: cmupdf_annot, id: String, pageIndex: Int) -> Annotation {
        func point(_ values: UnsafeMutablePointer<Float>, _ i: Int) -> PagePoint {
            PagePoint(x: Double(values[2 * i]), y: Double(values[2 * i + 1]))
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
            rect: PageRect(
                x: Double(raw.rect.0), y: Double(raw.rect.1),
                width: Double(raw.rect.2 - raw.rect.0), height: Double(raw.rect.3 - raw.rect.1)),
            quads: quads, inkPaths: inkPaths, points: points,
            color: Color(pdfComponents: components(raw.color, count: raw.color_n)),
            interiorColor: Color(pdfComponents: components(raw.interior, count: raw.interior_n)),
            opacity: Double(raw.opacity),
            borderWidth: raw.has_border != 0 ? Double(raw.border) : nil,
            contents: string(raw.contents), author: string(raw.author), subject: string(raw.subject),
            creationDate: raw.created > 0 ? Date(timeIntervalSince1970: TimeInterval(raw.created)) : nil,
            modificationDate: raw.modified > 0 ? Date(timeIntervalSince1970: TimeInterval(raw.modified)) : nil,
            flags: AnnotationFlags(rawValue: Int(raw.flags)), iconName: string(raw.icon))
    }

    /// The first `count` of a C array of four components.
    private static func components(_ tuple: (Float, Float, Float, Float), count: Int32) -> [Double] {
        Array([tuple.0, tuple.1, tuple.2, tuple.3].prefix(Int(count))).map(Double.init)
    }

    /// Calls `body` with the annotation's fields as a C struct, valid during the call.
    private static func withRawValues<T>(of annotation: Annotation, _ body: (UnsafePointer<cmupdf_annot>) throws -> T) throws -> T {
        guard let raw = calloc(1, MemoryLayout<cmupdf_annot>.stride)?.assumingMemoryBound(to: cmupdf_annot.self) else {
            throw RendererError(.limitExceeded, "out of memory", backend: MuPDFErrors.backend)
        }
        defer { cmupdf_annots_free(raw, 1) }
        func floats(_ values: [Double]) -> UnsafeMutablePointer<Float> {
            let buffer = malloc(max(1, values.count) * MemoryLayout<Float>.stride)!.assumingMemoryBound(to: Float.self)
            for (i, value) in values.enumerated() { buffer[i] = Float(value) }
            return buffer
        }
        func coordinates(_ points: [PagePoint]) -> [Double] { points.flatMap { [$0.x, $0.y] } }
        func copy(_ text: String?) -> UnsafeMutablePointer<CChar>? { text.map { strdup($0) } }

        raw.pointee.name = copy(annotation.id)
        withUnsafeMutableBytes(of: &raw.pointee.subtype) { bytes in
            for (i, byte) in annotation.kind.rawValue.utf8.prefix(31).enumerated() { bytes[i] = byte }
        }
        let r = annotation.rect
        raw.pointee.rect = (Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
        raw.pointee.quads = floats(annotation.quads.flatMap { coordinates([$0.upperLeft, $0.upperRight, $0.lowerLeft, $0.lowerRight]) })
        raw.pointee.quad_count = Int32(annotation.quads.count)
        raw.pointee.ink = floats(coordinates(annotation.inkPaths.flatMap { $0 }))
        let counts = malloc(max(1, annotation.inkPaths.count) * MemoryLayout<Int32>.stride)!.assumingMemoryBound(to: Int32.self)
        for (i, path) in annotation.inkPaths.enumerated() { counts[i] = Int32(path.count) }
        raw.pointee.ink_counts = counts
        raw.pointee.ink_path_count = Int32(annotation.inkPaths.count)
        raw.pointee.points = floats(coordinates(annotation.points))
        raw.pointee.point_count = Int32(annotation.points.count)
        if let color = annotation.color {
            raw.pointee.color_n = 3
            raw.pointee.color = (Float(color.red), Float(color.green), Float(color.blue), 0)
        }
        if let color = annotation.interiorColor {
            raw.pointee.interior_n = 3
            raw.pointee.interior = (Float(color.red), Float(color.green), Float(color.blue), 0)
        }
        raw.pointee.opacity = Float(annotation.opacity)
        if let width = annotation.borderWidth {
            raw.pointee.has_border = 1
            raw.pointee.border = Float(width)
        }
        raw.pointee.contents = copy(annotation.contents)
        raw.pointee.author = copy(annotation.author)
        raw.pointee.subject = copy(annotation.subject)
        raw.pointee.icon = copy(annotation.iconName)
        raw.pointee.created = annotation.creationDate.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        raw.pointee.modified = annotation.modificationDate.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? 0
        raw.pointee.flags = Int32(annotation.flags.rawValue)
        return try body(raw)
    }
}

extension MuPDFDocument {
    var canSaveIncrementally: Bool { cmupdf_can_save_incrementally(handle) != 0 }

    func write(to path: String, incremental: Bool) throws {
        var error = cmupdf_error()
        guard cmupdf_save(handle, path, incremental ? 1 : 0, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "save to \(path)", code: error.code == Int32(CMUPDF_ERROR_IO) ? .ioFailure : .engineFailure)
        }
    }

    /// The first part of the trailer's `/ID` in hexadecimal, nil when there is none.
    func fileIdentifier() -> String? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let length = Int(cmupdf_file_identifier(handle, &bytes, Int32(bytes.count)))
        guard length > 0 else { return nil }
        return bytes.prefix(min(length, bytes.count)).map { String(format: "%02x", $0) }.joined()
    }
}
