import CSignatureCrypto
import Foundation
import RendererProvider

/// Signature verification over the document's file.
extension Document {
    /// Checks every signature field of the file the document was read from (as
    /// `sourceData()` reads it) and gives each one verdict with its reasons:
    ///
    /// - the byte ranges run from the file's first byte to the end of a revision and leave out
    ///   only the signature (`/Contents`);
    /// - the CMS signature (`adbe.pkcs7.detached`, `ETSI.CAdES.detached`) holds the digest of
    ///   those bytes and verifies with the signer's key (OpenSSL's libcrypto);
    /// - the signer's certificate was valid at the signing time (the signed attribute, else
    ///   `/M`), may sign, and leads to one of `trust`'s anchors at that time;
    /// - what later revisions changed: a change to the pages (their number, boxes, text, or
    ///   their drawing without annotations) breaks the signature; annotations, form values,
    ///   metadata and further signatures are allowed unless the document's certification
    ///   (`SignatureField.certification`, its `/DocMDP` permissions) forbids them.
    ///
    /// The verdicts do not depend on the engine, which only lists the fields.
    /// `invalidArgument` when the document has unsaved changes (the file is what was signed)
    /// or `trust`'s PEM holds no certificate.
    public func verifySignatures(trust: TrustAnchors = .none) throws -> [SignatureVerification] {
        guard !hasUnsavedChanges else {
            throw RendererError(.invalidArgument, "the document has unsaved changes; signatures are verified over the saved file", backend: rendererID)
        }
        let fields = try signatureFields()
        let data = try sourceData()
        let verifier = SignatureVerifier(document: self, data: data, trust: trust, certification: fields.lazy.compactMap(\.certification).first)
        return try fields.map { try verifier.verify($0) }
    }
}

/// Verifies the signature fields of one file's bytes.
struct SignatureVerifier {
    let document: Document
    let data: Data
    let trust: TrustAnchors
    /// The document's certification, which rules what may change after any signature.
    let certification: CertificationPermissions?

    /// The encodings checked: detached CMS.
    static let detachedEncodings: Set<String> = ["adbe.pkcs7.detached", "ETSI.CAdES.detached"]

    func verify(_ field: SignatureField) throws -> SignatureVerification {
        typealias Reason = SignatureVerification.Reason
        guard field.isSigned else { return SignatureVerification(field: field.name, reasons: [Reason(.notSigned, "the field holds no signature")]) }
        guard let subFilter = field.subFilter, Self.detachedEncodings.contains(subFilter) else {
            return SignatureVerification(field: field.name, reasons: [Reason(.unsupportedEncoding, "signatures encoded as \(field.subFilter ?? "nothing") are not checked")])
        }
        let ranges: SignedRanges
        do {
            ranges = try SignedRanges(field.byteRanges, in: data)
        } catch let error as SignedRanges.Refusal {
            return SignatureVerification(field: field.name, reasons: [Reason(.malformedRanges, error.message)])
        }
        var content = Data(capacity: ranges.signedByteCount)
        let base = data.startIndex
        for range in field.byteRanges { content.append(data[(base + range.offset)..<(base + range.offset + range.length)]) }
        var result = sigcrypto_result()
        let fallback = field.signingTime.map { Int64($0.timeIntervalSince1970) } ?? -1
        let ok = ranges.signature.withUnsafeBytes { cms in
            content.withUnsafeBytes { signed in
                trust.pem.withUnsafeBytes { pem in
                    sigcrypto_verify(
                        cms.baseAddress?.assumingMemoryBound(to: UInt8.self), cms.count, signed.baseAddress?.assumingMemoryBound(to: UInt8.self), signed.count,
                        pem.baseAddress?.assumingMemoryBound(to: CChar.self), pem.count, trust.includesSystem ? 1 : 0, fallback, &result)
                }
            }
        }
        guard ok != 0 else { throw RendererError(.limitExceeded, "out of memory checking the signature of \(field.name)") }
        if !trust.pem.isEmpty, result.anchors_read == 0 {
            throw RendererError(.invalidArgument, "the trust anchors hold no PEM certificate")
        }
        let message = Self.text(of: result.message)
        var reasons: [Reason] = []
        guard result.parsed != 0 else {
            return SignatureVerification(field: field.name, reasons: [Reason(.malformedSignature, "the signature cannot be read: \(message)")])
        }
        reasons.append(
            result.intact != 0
                ? Reason(.intact, "the signed bytes are those the signer signed")
                : Reason(.signatureMismatch, "the signed bytes were changed, or the signature does not match them (\(message))"))
        let checkedAt = Date(timeIntervalSince1970: TimeInterval(result.checked_time))
        if result.certificate_current == 0 { reasons.append(Reason(.certificateNotCurrent, "the signer's certificate was not valid at \(Self.format(checkedAt))")) }
        if result.key_usage_allows == 0 { reasons.append(Reason(.keyUsage, "the signer's certificate may not sign documents (its key usage)")) }
        switch result.chain {
        case SIGCRYPTO_CHAIN_TRUSTED: reasons.append(Reason(.trusted, "the signer's certificate leads to a trust anchor"))
        case SIGCRYPTO_CHAIN_UNTRUSTED: reasons.append(Reason(.untrusted, "the signer's certificate leads to no trust anchor given (\(message))"))
        case SIGCRYPTO_CHAIN_FAILED: reasons.append(Reason(.chainRefused, "a certificate of the signer's chain was refused at \(Self.format(checkedAt)): \(message)"))
        default: reasons.append(Reason(.noTrustAnchor, "no trust anchor was given, so the signer is not known"))
        }
        if ranges.end == data.count {
            reasons.append(Reason(.coversWholeFile, "the signature covers the whole file"))
        } else {
            reasons.append(Reason(.coversItsRevision, "the signature covers its revision, the file's first \(ranges.end) of \(data.count) bytes"))
            reasons.append(try RevisionComparison(document: document, data: data, signedLength: ranges.end, certification: certification).reason())
        }
        return SignatureVerification(
            field: field.name, reasons: reasons, signer: Self.text(of: result.signer),
            signingTime: result.has_signing_time != 0 ? Date(timeIntervalSince1970: TimeInterval(result.signing_time)) : nil,
            digestAlgorithm: Self.text(of: result.digest))
    }

    /// The C string in a fixed array of the result.
    private static func text<T>(of tuple: T) -> String {
        withUnsafeBytes(of: tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
