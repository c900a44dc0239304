import Foundation
import RendererProvider

/// What the revisions after a signed one changed, found by opening the signed revision with
/// the same engine and comparing it with the document as the file is now.
struct RevisionComparison {
    let document: Document
    let data: Data
    let signedLength: Int

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
        return SignatureVerification.Reason(
            .allowedChanges,
            changes.isEmpty ? "later revisions change nothing a reader sees" : "later revisions change only \(changes.joined(separator: ", ")), which a signed document may receive")
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

    /// The other kinds of change, named.
    private func otherChanges(from signed: Document) throws -> [String] {
        var changes: [String] = []
        let annotations = { (document: Document) in try (0..<document.pageCount).map { try document.annotations(pageAt: $0) } }
        if try annotations(signed) != annotations(document) { changes.append("annotations") }
        let values = { (document: Document) in try document.formFields().map { [$0.name] + $0.values } }
        if try values(signed) != values(document) { changes.append("form values") }
        if try signed.signatureFields().filter(\.isSigned).count != document.signatureFields().filter(\.isSigned).count { changes.append("signatures") }
        if try signed.info().metadata != document.info().metadata || signed.xmpPacket() != document.xmpPacket() { changes.append("metadata") }
        return changes
    }
}
