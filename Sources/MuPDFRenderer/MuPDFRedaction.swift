import CMuPDF
import RendererEngine

extension MuPDFPage {
    func applyRedactions(blackBoxes: Bool) throws -> Bool {
        var error = cmupdf_error()
        let redacted = cmupdf_apply_redactions(document.handle, handle, blackBoxes ? 1 : 0, &error)
        guard redacted >= 0 else { throw MuPDFErrors.translate(error, doing: "apply the redactions of page \(index + 1)", code: .damaged) }
        return redacted == 1
    }
}
