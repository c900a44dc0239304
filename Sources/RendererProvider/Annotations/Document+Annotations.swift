#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// The annotations on the page at `index`, in the order of the page's `/Annots` array,
    /// without links (see ``links(pageAt:)``) and popups (part of their parent).
    public func annotations(pageAt index: Int) throws -> [Annotation] {
        try withPage(index, needing: .annotations, as: AnnotationReading.self) { try $0.annotations() }
    }

    /// The annotations on every page, page by page.
    public func annotations() throws -> [Annotation] {
        try require(.annotations)
        return try withEngine { document, _ in
            try (0..<document.pageCount).flatMap { try document.loadPage(at: $0).capability(AnnotationReading.self).annotations() }
        }
    }

    /// The annotation with identity `id`: on the page at `pageIndex` when given, else the
    /// first found, looking page by page. Throws `invalidArgument` when there is none.
    public func annotation(withID id: String, onPageAt pageIndex: Int? = nil) throws -> Annotation {
        let pages = pageIndex.map { [$0] } ?? Array(0..<pageCount)
        for page in pages {
            if let found = try annotations(pageAt: page).first(where: { $0.id == id }) { return found }
        }
        let place = pageIndex.map { "on page \($0 + 1)" } ?? "in the document"
        throw RendererError(.invalidArgument, "there is no annotation \"\(id)\" \(place)", rendererID: renderer.id)
    }

    /// Adds an annotation and returns it as stored, with its identity.
    ///
    /// An empty `id` gets a new unique name; a given one must not be in use on the page.
    /// Creation and modification dates default to now, where the renderer writes them.
    /// Throws `unsupported` when this renderer cannot create the kind or write a field the
    /// annotation sets (see `Renderer.annotationSupport`), and `invalidArgument` when the
    /// annotation lacks the geometry its kind needs.
    @discardableResult
    public func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        try add(annotation) { page, new in try page.addAnnotation(new) }
    }

    /// Adds a stamp annotation that shows `image` (a photo, a signature) and returns it as
    /// stored, with its identity, as ``addAnnotation(_:)`` does.
    ///
    /// `annotation` is the stamp (kind `AnnotationKind.stamp`; its contents, author and
    /// other fields as for any stamp) and its `rect` the room the picture may take: the
    /// stamp gets the largest rectangle of the image's proportions within it, centred.
    /// The image is stored with at most ``imageStampResolution`` pixels an inch of that
    /// rectangle (a larger one is scaled down first), drawn by the engine's own stamp
    /// appearance, so other readers show it as it is, upright on the page as shown (on a page
    /// the document turns, the stored pixels are turned back). Throws `unsupported` where the engine
    /// lacks `Capability.imageStamps`, and `invalidArgument` for another kind.
    @discardableResult
    public func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        try require(.imageStamps)
        guard annotation.kind == .stamp else {
            throw RendererError(.invalidArgument, "an image goes into a stamp annotation, not a \(annotation.kind.rawValue) one")
        }
        var stamp = annotation
        stamp.rect = Self.fitting(image, in: annotation.rect)
        let scale = Self.imageStampResolution / 72
        let stored = image.fitting(
            width: Int((stamp.rect.size.width * scale).rounded(.up)), height: Int((stamp.rect.size.height * scale).rounded(.up))
        ).turnedBack(by: try pageInfo(pageAt: annotation.pageIndex).rotation)
        return try add(stamp) { page, new in try page.capability(ImageStamping.self).addImageStamp(new, image: stored) }
    }

    /// The most pixels an inch an image stamp keeps of its picture (300).
    public static let imageStampResolution: Double = 300

    /// The largest rectangle of `image`'s proportions within `room`, centred in it.
    static func fitting(_ image: StampImage, in room: PageRect) -> PageRect {
        let scale = min(room.size.width / Double(image.width), room.size.height / Double(image.height))
        let (width, height) = (Double(image.width) * scale, Double(image.height) * scale)
        return PageRect(x: room.minX + (room.size.width - width) / 2, y: room.minY + (room.size.height - height) / 2, width: width, height: height)
    }

    /// Adds `annotation` through `create` after the checks every new annotation passes: a
    /// new unique name unless it has one not yet in use on its page, and dates of now where
    /// the renderer writes them.
    private func add(_ annotation: Annotation, _ create: (any AnnotationWriting, Annotation) throws -> Annotation) throws -> Annotation {
        try requireEditing(annotation, creating: true)
        let renderer = self.renderer
        return try changing(pageAt: annotation.pageIndex) { page in
            try Self.adding(annotation, on: page, taken: Set(page.annotations().map(\.id)), by: renderer, create)
        }
    }

    /// Adds `annotation` (already let through ``requireEditing(_:creating:)``) on the loaded
    /// `page` of a document `renderer` serves, whose annotations' identities are `taken`, by
    /// `create`; the dates it lacks are now. Static: it runs while the engine is held, where
    /// the document's own properties cannot be read.
    static func adding(
        _ annotation: Annotation, on page: any AnnotationWriting, taken: Set<String>, by renderer: any Renderer,
        _ create: (any AnnotationWriting, Annotation) throws -> Annotation
    ) throws -> Annotation {
        var new = annotation
        let support = renderer.annotationSupport
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        if new.creationDate == nil, support.writableFields.contains(.creationDate) { new.creationDate = now }
        if new.modificationDate == nil, support.writableFields.contains(.modificationDate) { new.modificationDate = now }
        if new.id.isEmpty {
            new.id = UUID().uuidString.lowercased()
        } else if taken.contains(new.id) {
            throw RendererError(.invalidArgument, "page \(new.pageIndex + 1) already has an annotation \"\(new.id)\"")
        }
        return try create(page, new)
    }

    /// Changes the annotation with the same `id` on the same page to the given fields and
    /// returns it as stored. The kind cannot change. Throws as ``addAnnotation(_:)`` does, and
    /// `invalidArgument` when there is no such annotation or it is read-only (a kind the API
    /// cannot create).
    /// The modification date becomes now unless the caller changed it, where the renderer
    /// writes it; a creation date left out (nil) keeps the stored one. Only the fields that
    /// differ from the stored annotation must be writable.
    @discardableResult
    public func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        try requireEditing(annotation, creating: false)
        let renderer = self.renderer
        return try changing(pageAt: annotation.pageIndex) { page in
            try Self.updating(annotation, on: page, current: page.annotations().first { $0.id == annotation.id }, by: renderer)
        }
    }

    /// Changes `current`, the annotation of `annotation`'s identity on the loaded `page` of a
    /// document `renderer` serves (nil when there is none), to `annotation` (already let
    /// through ``requireEditing(_:creating:)``). Static, as ``adding(_:on:taken:by:_:)`` is.
    static func updating(_ annotation: Annotation, on page: any AnnotationWriting, current: Annotation?, by renderer: any Renderer) throws -> Annotation {
        guard let current else {
            throw RendererError(.invalidArgument, "there is no annotation \"\(annotation.id)\" on page \(annotation.pageIndex + 1)")
        }
        guard current.kind == annotation.kind else {
            throw RendererError(.invalidArgument, "annotation \"\(annotation.id)\" is a \(current.kind), not a \(annotation.kind); remove it and add a new one")
        }
        var changed = annotation
        // Dates left out are kept: the creation date as stored, the modification date now.
        if changed.creationDate == nil { changed.creationDate = current.creationDate }
        if changed.modificationDate == nil || changed.modificationDate == current.modificationDate,
            renderer.annotationSupport.writableFields.contains(.modificationDate) {
            changed.modificationDate = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        }
        try requireWritable(changed.changedFields(from: current).subtracting([.modificationDate]), kind: annotation.kind, by: renderer)
        return try page.updateAnnotation(changed)
    }

    /// Removes the annotation with identity `id` (and its popup) with its replies, every
    /// annotation of its thread (`Annotation.inReplyTo`): from the page at `pageIndex` when
    /// given, else from the first page that has it.
    public func removeAnnotation(withID id: String, onPageAt pageIndex: Int? = nil) throws {
        try require(.editAnnotations)
        let found = try annotation(withID: id, onPageAt: pageIndex)
        try changing(pageAt: found.pageIndex) { page in
            for reply in try page.annotations().replies(to: id).reversed() { try page.removeAnnotation(id: reply.id) }
            try page.removeAnnotation(id: id)
        }
    }

    /// How user space maps onto page space on the page at `index`; see `PageSpace`.
    public func pageSpace(pageAt index: Int) throws -> PageSpace {
        try withPage(index) { try $0.pageSpace() }
    }

    /// True when the document has changes that are not saved.
    public var hasUnsavedChanges: Bool { engine.withLock { $0.hasUnsavedChanges } }

    /// Throws unless `annotation` may be created (`creating`) or changed here: the capability,
    /// the kind, its fields, its geometry and the document's permission.
    func requireEditing(_ annotation: Annotation, creating: Bool) throws {
        try require(.editAnnotations)
        let renderer = self.renderer
        let support = renderer.annotationSupport
        guard annotation.kind.isCreatable else {
            throw RendererError(.invalidArgument, "\(annotation.kind) annotations are read-only: the API creates and changes only \(AnnotationKind.creatable.map(\.rawValue).joined(separator: ", "))")
        }
        if creating {
            guard support.creatableKinds.contains(annotation.kind) else {
                throw RendererError(.unsupported, "\(renderer.engineName) cannot create \(annotation.kind) annotations here", rendererID: renderer.id)
            }
            try Self.requireWritable(annotation.setFields, kind: annotation.kind, by: renderer)
        }
        try AnnotationValidation.check(annotation)
        try require(.annotate, toAllow: "changing annotations")
    }

    static func requireWritable(_ fields: Set<AnnotationField>, kind: AnnotationKind, by renderer: any Renderer) throws {
        let unwritable = fields.subtracting(renderer.annotationSupport.writableFields(for: kind))
        guard unwritable.isEmpty else {
            throw RendererError(
                .unsupported,
                "\(renderer.engineName) cannot write the field\(unwritable.count == 1 ? "" : "s") \(unwritable.sorted().map(\.rawValue).joined(separator: ", ")) of \(kind) annotations",
                rendererID: renderer.id)
        }
    }

    /// Runs `body` on the page at `index`, whose annotations it changes, and marks the document changed.
    func changing<T: Sendable>(pageAt index: Int, _ body: (any AnnotationWriting) throws -> T) throws -> T {
        let result = try withPage(index, needing: nil, as: AnnotationWriting.self, body)
        markChanged()
        return result
    }
}
