import Foundation
import RendererProvider

/// What the revisions after a signed one changed, found by opening the signed revision with
/// the same engine and comparing it with the document as the file is now, and whether the
/// document's certification (if it has one) permits it.
struct RevisionComparison {
    let document: Document
    let data: Data
    let signedLength: Int
    /// The permissions of the document's certification signature; nil when it has none,
    /// which permits every change but one to the pages.
    let certification: CertificationPermissions?
    /// The fields the signature's field locks, whose values may not change after it.
    let lock: FieldLock?

    /// The changes besides the pages', by name.
    enum Change: String, CaseIterable {
        case annotations
        case formValues = "form values"
        case signatures
        case metadata
        /// The files the document itself embeds (an "invoice.exe" added after signing); a
        /// file-attachment annotation's file is an annotation's change.
        case attachments = "embedded files"
        /// The outline (bookmarks that lead a reader elsewhere).
        case outline
        /// What the document does of itself: its open action, additional actions and
        /// JavaScript (a script that runs when the signed document opens).
        case actions = "document actions"
    }

    /// Whether `certification` permits `change`. Metadata is counted with form filling, since
    /// signing and filling tools write the modification date. The document's embedded files,
    /// its outline and its own actions are what a reader is given beyond the signed pages and
    /// form: no signature permits changing them (pyHanko's difference analysis finds such a change
    /// "other").
    static func permits(_ certification: CertificationPermissions?, _ change: Change) -> Bool {
        switch change {
        case .attachments, .outline, .actions: false
        case .annotations: certification == nil || certification == .formFillingAndAnnotations
        case .formValues, .signatures, .metadata: certification != .noChanges
        }
    }

    /// The resolution pages are drawn at to compare them: enough to see any change of
    /// content, little enough to draw fast.
    static let comparisonDPI = 36.0

    /// The finding: the pages changed (the signature breaks), other changes (allowed, named),
    /// or no comparison possible.
    func reason() throws -> SignatureVerification.Reason {
        let signed: Document
        do {
            signed = try document.revision(endingAt: signedLength, of: data)
        } catch let error as RendererError {
            return SignatureVerification.Reason(.revisionNotCompared, "the signed revision cannot be opened to compare: \(error.message)")
        }
        guard signed.pageCount == document.pageCount else {
            return SignatureVerification.Reason(.changedAfterSigning, "after signing, the document went from \(signed.pageCount) to \(document.pageCount) pages")
        }
        let annotations = (before: try Self.annotations(of: signed), after: try Self.annotations(of: document))
        if let change = try pageChange(from: signed, widgets: annotations) {
            return SignatureVerification.Reason(.changedAfterSigning, "after signing, \(change)")
        }
        let (changes, changedFields) = try otherChanges(from: signed, annotations: annotations)
        if let lock, case let locked = changedFields.filter(lock.locks), !locked.isEmpty {
            return SignatureVerification.Reason(
                .changedAfterSigning, "after signing, the \(locked.count == 1 ? "field" : "fields") \(locked.joined(separator: ", ")) changed, which the signature locks")
        }
        let refused = changes.filter { !Self.permits(certification, $0) }
        guard refused.isEmpty else {
            let rule = certification == nil ? "no signature permits" : "the document's certification does not permit"
            return SignatureVerification.Reason(.changedAfterSigning, "after signing, \(Self.names(refused)) changed, which \(rule)")
        }
        return SignatureVerification.Reason(
            .allowedChanges,
            changes.isEmpty ? "later revisions change nothing a reader sees" : "later revisions change only \(Self.names(changes)), which \(certification == nil ? "a signed document" : "the document's certification") permits")
    }

    /// Each page's annotations, read once for both comparisons: form widgets' areas are left
    /// out of the drawings, and widgets out of the annotations.
    private static func annotations(of document: Document) throws -> [[Annotation]] {
        try (0..<document.pageCount).map { try document.annotations(pageAt: $0) }
    }

    private static func isWidget(_ annotation: Annotation) -> Bool { annotation.kind.rawValue == "Widget" }

    /// What changed in the pages themselves (of the same number), in words; nil when nothing
    /// did. `widgets` are each page's annotations of both revisions.
    private func pageChange(from signed: Document, widgets annotations: (before: [[Annotation]], after: [[Annotation]])) throws -> String? {
        var options = RenderOptions(dpi: Self.comparisonDPI)
        options.annotations = false
        for index in 0..<document.pageCount {
            let page = "page \(index + 1)"
            if try signed.pageInfo(pageAt: index) != document.pageInfo(pageAt: index) { return "\(page) changed its size, boxes or rotation" }
            // The text page holds the content's text alone on both engines; Poppler's plain
            // text also holds what annotations' appearances draw, such as a new signature's.
            if try signed.textPage(pageAt: index) != document.textPage(pageAt: index) { return "the text of \(page) changed" }
            // Form widgets, whose drawing filling and signing change: Poppler draws them even
            // without annotations (its printing path keeps them).
            let widgets = (annotations.before[index] + annotations.after[index]).filter(Self.isWidget).map(\.rect)
            let before = try signed.render(pageAt: index, options: options), after = try document.render(pageAt: index, options: options)
            if Self.differ(before, after, outside: widgets.compactMap { PixelRect(covering: $0, scale: options.scale) }) { return "what \(page) draws changed" }
        }
        return nil
    }

    /// Whether two drawings differ in a pixel outside `areas` (each widened by a pixel, for
    /// the smoothing at their edges).
    private static func differ(_ a: Bitmap, _ b: Bitmap, outside areas: [PixelRect]) -> Bool {
        guard a.width == b.width, a.height == b.height, a.stride == b.stride, a.format == b.format else { return true }
        guard a.bytes != b.bytes else { return false }
        let size = a.format.bytesPerPixel
        for y in 0..<a.height {
            let skipped = areas.filter { y >= $0.y - 1 && y <= $0.y + $0.height }
            for x in 0..<a.width where !skipped.contains(where: { x >= $0.x - 1 && x <= $0.x + $0.width }) {
                let start = y * a.stride + x * size
                if a.bytes[start..<(start + size)] != b.bytes[start..<(start + size)] { return true }
            }
        }
        return false
    }

    /// The files the document itself embeds (its `/EmbeddedFiles` tree: name, size,
    /// checksum), not those of file-attachment annotations, which count as annotations; none
    /// where the engine reads no attachments.
    private static func embeddedFiles(of document: Document) throws -> [Attachment] {
        guard document.renderer.capabilities.contains(.attachments) else { return [] }
        return try document.attachments().filter { $0.place == .document }
    }

    /// The document's outline; none where the engine reads no outline.
    private static func outline(of document: Document) throws -> [OutlineItem] {
        guard document.renderer.capabilities.contains(.outline) else { return [] }
        return try document.outline()
    }

    private static func names(_ changes: [Change]) -> String {
        changes.map(\.rawValue).joined(separator: ", ")
    }

    /// The other kinds of change, and the names of the form fields whose values changed.
    private func otherChanges(from signed: Document, annotations: (before: [[Annotation]], after: [[Annotation]])) throws -> ([Change], [String]) {
        var changes: [Change] = []
        // Widgets are the form's: their changes count as form values and signatures.
        let others = { (pages: [[Annotation]]) in pages.map { $0.filter { !Self.isWidget($0) } } }
        if others(annotations.before) != others(annotations.after) { changes.append(.annotations) }
        let values = { (document: Document) in try document.formFields().filter { $0.kind != .signature }.map { ($0.name, $0.values) } }
        let (before, after) = (try values(signed), try values(document))
        if !before.elementsEqual(after, by: ==) { changes.append(.formValues) }
        let valuesBefore = Dictionary(before, uniquingKeysWith: { first, _ in first })
        let changedFields = after.filter { valuesBefore[$0.0] != $0.1 }.map(\.0)
        // Document timestamps are left out: PAdES lets them follow any certification.
        let signatures = { (document: Document) in
            try document.signatureFields().filter { $0.isSigned && $0.subFilter != SignatureUpdateRequest.documentTimestamp }.count
        }
        if try signatures(signed) != signatures(document) { changes.append(.signatures) }
        if try signed.info().metadata != document.info().metadata || signed.xmpPacket() != document.xmpPacket() { changes.append(.metadata) }
        if try Self.embeddedFiles(of: signed) != Self.embeddedFiles(of: document) { changes.append(.attachments) }
        if try Self.outline(of: signed) != Self.outline(of: document) { changes.append(.outline) }
        // Actions that cannot be read whole are taken as changed.
        let actions = (before: try signed.documentActions(), after: try document.documentActions())
        if actions.before != actions.after || actions.after.isIncomplete { changes.append(.actions) }
        return (changes, changedFields)
    }
}
