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

    /// The changes besides the pages', by name.
    enum Change: String, CaseIterable {
        case annotations
        case formValues = "form values"
        case signatures
        case metadata
    }

    /// Whether `certification` permits `change`. Metadata is counted with form filling, since
    /// signing and filling tools write the modification date.
    static func permits(_ certification: CertificationPermissions?, _ change: Change) -> Bool {
        switch certification {
        case nil: true
        case .noChanges: false
        case .formFilling: change != .annotations
        case .formFillingAndAnnotations: true
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
        if let change = try pageChange(from: signed) {
            return SignatureVerification.Reason(.changedAfterSigning, "after signing, \(change)")
        }
        let changes = try otherChanges(from: signed)
        let refused = changes.filter { !Self.permits(certification, $0) }
        guard refused.isEmpty else {
            return SignatureVerification.Reason(
                .changedAfterSigning, "after signing, \(Self.names(refused)) changed, which the document's certification does not permit")
        }
        return SignatureVerification.Reason(
            .allowedChanges,
            changes.isEmpty ? "later revisions change nothing a reader sees" : "later revisions change only \(Self.names(changes)), which \(certification == nil ? "a signed document" : "the document's certification") permits")
    }

    /// What changed in the pages themselves, in words; nil when nothing did.
    private func pageChange(from signed: Document) throws -> String? {
        guard signed.pageCount == document.pageCount else {
            return "the document went from \(signed.pageCount) to \(document.pageCount) pages"
        }
        var options = RenderOptions(dpi: Self.comparisonDPI)
        options.annotations = false
        for index in 0..<document.pageCount {
            let page = "page \(index + 1)"
            if try signed.pageInfo(pageAt: index) != document.pageInfo(pageAt: index) { return "\(page) changed its size, boxes or rotation" }
            if try signed.text(pageAt: index) != document.text(pageAt: index) { return "the text of \(page) changed" }
            if try signed.render(pageAt: index, options: options) != document.render(pageAt: index, options: options) { return "what \(page) draws changed" }
        }
        return nil
    }

    private static func names(_ changes: [Change]) -> String {
        changes.map(\.rawValue).joined(separator: ", ")
    }

    /// The other kinds of change.
    private func otherChanges(from signed: Document) throws -> [Change] {
        var changes: [Change] = []
        let annotations = { (document: Document) in try (0..<document.pageCount).map { try document.annotations(pageAt: $0) } }
        if try annotations(signed) != annotations(document) { changes.append(.annotations) }
        let values = { (document: Document) in try document.formFields().map { [$0.name] + $0.values } }
        if try values(signed) != values(document) { changes.append(.formValues) }
        if try signed.signatureFields().filter(\.isSigned).count != document.signatureFields().filter(\.isSigned).count { changes.append(.signatures) }
        if try signed.info().metadata != document.info().metadata || signed.xmpPacket() != document.xmpPacket() { changes.append(.metadata) }
        return changes
    }
}
