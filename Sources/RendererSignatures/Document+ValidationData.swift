import Foundation
import RendererProvider

/// Long-term validation data (PAdES B-LT).
extension Document {
    /// The document's saved file with a document security store (`/DSS`) in an incremental
    /// update: every certificate its signatures carry (their signers' chains, and their
    /// timestamps' authorities'), with `extra`'s certificates, CRLs and OCSP responses, each
    /// once in this update (a store there is already is added to, and its streams are not
    /// read back, so a later call writes the signatures' certificates again). Earlier
    /// signatures stay valid; a document timestamp after it
    /// (``timestamp(authority:digest:)``) makes PAdES B-LTA. Refused as
    /// ``sign(with:options:)`` refuses for the file (unsaved changes, encryption, repair);
    /// `invalidArgument` when there is nothing to add. Nothing is written.
    public func addingValidationData(_ extra: ValidationData = ValidationData()) throws -> Data {
        var data = extra
        let file = try sourceData()
        for field in try signatureFields() where field.isSigned {
            guard let ranges = try? SignedRanges(field.byteRanges, in: file) else { continue }
            data.certificates += CMSBytes.certificates(in: ranges.signature)
            if let token = CMSBytes.signatureTimestamp(in: ranges.signature) { data.certificates += CMSBytes.certificates(in: token) }
        }
        guard !data.isEmpty else {
            throw RendererError(.invalidArgument, "the document's signatures carry no certificate and no validation data was given", rendererID: renderer.id)
        }
        return try preparedValidationDataUpdate(data)
    }
}
