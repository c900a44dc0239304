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
            throw RendererError(.invalidArgument, "the document has unsaved changes; signatures are verified over the saved file", rendererID: rendererID)
        }
        let fields = try signatureFields()
        let data = try sourceData()
        // The revocation lists and OCSP responses the document security store keeps count
        // with those given (each believed only when the issuer, or its delegate, signed it); the
        // store is read only when a signature is there to check.
        let stored = trust.isEmpty || !fields.contains(where: \.isSigned) ? ValidationData() : (try? validationData()) ?? ValidationData()
        let verifier = SignatureVerifier(
            document: self, data: data, trust: trust, anchors: TrustAnchors(pem: trust.pem, revocationLists: stored.crls).pem,
            ocspResponses: trust.ocspResponses + stored.ocspResponses, certification: fields.lazy.compactMap(\.certification).first)
        return try fields.map { try verifier.verify($0) }
    }
}

/// Verifies the signature fields of one file's bytes.
struct SignatureVerifier {
    typealias Reason = SignatureVerification.Reason

    let document: Document
    let data: Data
    let trust: TrustAnchors
    /// The anchors' PEM text with the revocation lists the document security store holds.
    let anchors: Data
    /// The OCSP responses given and those the store holds (DER), each checked on its own.
    let ocspResponses: [Data]
    /// The document's certification, which rules what may change after any signature.
    let certification: CertificationPermissions?

    /// The CMS encodings checked: detached, or (`adbe.pkcs7.sha1`, the legacy one) holding
    /// the SHA-1 digest of the signed bytes.
    static let cmsEncodings: Set<String> = ["adbe.pkcs7.detached", "ETSI.CAdES.detached", legacyEncoding]
    /// The encoding whose CMS signature holds the signed bytes' SHA-1 digest.
    static let legacyEncoding = "adbe.pkcs7.sha1"

    func verify(_ field: SignatureField) throws -> SignatureVerification {
        guard field.isSigned else { return SignatureVerification(field: field.name, reasons: [Reason(.notSigned, "the field holds no signature")]) }
        let isTimestamp = field.subFilter == SignatureUpdateRequest.documentTimestamp
        guard let subFilter = field.subFilter, Self.cmsEncodings.contains(subFilter) || isTimestamp else {
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
        return isTimestamp ? try verifyDocumentTimestamp(field, ranges, content) : try verifySignature(field, ranges, content)
    }

    /// A CMS signature: its bytes, its signer's certificate and chain, its timestamp if it
    /// has one, and what it covers.
    private func verifySignature(_ field: SignatureField, _ ranges: SignedRanges, _ content: Data) throws -> SignatureVerification {
        var result = sigcrypto_result()
        let fallback = field.signingTime.map { Int64($0.timeIntervalSince1970) } ?? -1
        let lengths = ocspResponses.map(\.count)
        let ok = ranges.signature.withUnsafeBytes { cms in
            content.withUnsafeBytes { signed in
                anchors.withUnsafeBytes { pem in
                    ocspResponses.reduce(Data(), +).withUnsafeBytes { ocsp in
                        sigcrypto_verify(
                            cms.baseAddress?.assumingMemoryBound(to: UInt8.self), cms.count, signed.baseAddress?.assumingMemoryBound(to: UInt8.self), signed.count,
                            field.subFilter == Self.legacyEncoding ? 1 : 0, pem.baseAddress?.assumingMemoryBound(to: CChar.self), pem.count,
                            trust.includesSystem ? 1 : 0, ocsp.baseAddress?.assumingMemoryBound(to: UInt8.self), lengths, Int32(lengths.count), fallback, &result)
                    }
                }
            }
        }
        guard ok != 0 else { throw RendererError(.limitExceeded, "out of memory checking the signature of \(field.name)") }
        let message = CMSBytes.text(of: result.message)
        var reasons: [Reason] = []
        // A signature that cannot be read is this field's verdict; the anchors are read only
        // for one that can, so it says nothing of them.
        guard result.parsed != 0 else {
            return SignatureVerification(field: field.name, reasons: [Reason(.malformedSignature, "the signature cannot be read: \(message)")])
        }
        try checkAnchorsRead(result.anchors_read)
        reasons.append(
            result.intact != 0
                ? Reason(.intact, "the signed bytes are those the signer signed")
                : Reason(.signatureMismatch, "the signed bytes were changed, or the signature does not match them (\(message))"))
        let checkedAt = Date(timeIntervalSince1970: TimeInterval(result.checked_time))
        if result.certificate_current == 0 { reasons.append(Reason(.certificateNotCurrent, "the signer's certificate was not valid at \(Self.format(checkedAt))")) }
        if result.key_usage_allows == 0 { reasons.append(Reason(.keyUsage, "the signer's certificate may not sign documents (its key usage)")) }
        reasons += Self.chainReasons(result.chain, of: "the signer's certificate", at: checkedAt, message, revocationChecked: result.revocation_checked != 0)
        let stamp = try signatureTimestamp(ranges.signature)
        if let stamp { reasons.append(stamp.reason) }
        reasons += try coverage(ranges, lock: field.lock)
        return SignatureVerification(
            field: field.name, reasons: reasons, signer: CMSBytes.text(of: result.signer),
            signingTime: result.has_signing_time != 0 ? Date(timeIntervalSince1970: TimeInterval(result.signing_time)) : nil,
            digestAlgorithm: CMSBytes.text(of: result.digest), timestampTime: stamp?.time)
    }

    /// A document timestamp (`ETSI.RFC3161`): its token stamps the signed bytes, its
    /// authority's chain, and what it covers.
    private func verifyDocumentTimestamp(_ field: SignatureField, _ ranges: SignedRanges, _ content: Data) throws -> SignatureVerification {
        let result = try checkTimestamp(ranges.signature, over: content)
        guard result.parsed != 0 else {
            return SignatureVerification(field: field.name, reasons: [Reason(.malformedSignature, "the timestamp cannot be read: \(CMSBytes.text(of: result.message))")])
        }
        let time = Date(timeIntervalSince1970: TimeInterval(result.time))
        var reasons = [
            result.imprint_matches != 0 && result.signature_verifies != 0
                ? Reason(.intact, "the timestamp stamps the signed bytes, and its signature verifies")
                : Reason(.signatureMismatch, "the signed bytes were changed, or the timestamp's signature does not verify")
        ]
        reasons += Self.chainReasons(result.chain, of: "the timestamp's authority", at: time, CMSBytes.text(of: result.message), revocationChecked: false)
        if result.authority_may_stamp == 0 {
            reasons.insert(Reason(.keyUsage, "the timestamp's authority may not stamp times (\(Self.stampingUsage))"), at: 1)
        }
        reasons += try coverage(ranges, lock: field.lock)
        return SignatureVerification(field: field.name, reasons: reasons, signer: CMSBytes.text(of: result.authority), signingTime: time, timestampTime: time)
    }

    /// The finding on a signature's timestamp (of its signature value), and its time when it
    /// verifies; nil when the signature has none.
    private func signatureTimestamp(_ cms: Data) throws -> (reason: Reason, time: Date?)? {
        guard let token = CMSBytes.signatureTimestamp(in: cms) else { return nil }
        guard let value = try? CMSBytes.signatureValue(of: cms) else {
            return (Reason(.timestampMismatch, "the signature's value cannot be read to check its timestamp"), nil)
        }
        let result = try checkTimestamp(token, over: value)
        let time = Date(timeIntervalSince1970: TimeInterval(result.time))
        let authority = CMSBytes.text(of: result.authority)
        guard result.parsed != 0, result.imprint_matches != 0, result.signature_verifies != 0 else {
            return (Reason(.timestampMismatch, "the signature's timestamp does not stamp this signature, or its own signature fails"), nil)
        }
        guard result.authority_may_stamp != 0 else {
            return (Reason(.timestampMismatch, "the signature's timestamp is signed by \(authority), whose certificate may not stamp times (\(Self.stampingUsage))"), nil)
        }
        switch result.chain {
        case SIGCRYPTO_CHAIN_TRUSTED:
            return (Reason(.timestamped, "a timestamp by \(authority) shows the signature existed at \(Self.format(time))"), time)
        case SIGCRYPTO_CHAIN_FAILED, SIGCRYPTO_CHAIN_REVOKED:
            return (Reason(.timestampMismatch, "the timestamp's authority \(authority) was refused: \(CMSBytes.text(of: result.message))"), nil)
        default:
            return (Reason(.timestampUntrusted, "a timestamp by \(authority) dates the signature \(Self.format(time)), but its authority leads to no trust anchor given"), time)
        }
    }

    /// What RFC 3161 (2.3) asks of a timestamp authority's certificate.
    private static let stampingUsage = "RFC 3161 asks for the one extended key usage timeStamping, marked critical"

    /// `token` checked over `data` against the trust anchors.
    private func checkTimestamp(_ token: Data, over data: Data) throws -> sigcrypto_timestamp_result {
        var result = sigcrypto_timestamp_result()
        let ok = token.withUnsafeBytes { stamp in
            data.withUnsafeBytes { bytes in
                anchors.withUnsafeBytes { pem in
                    sigcrypto_verify_timestamp(
                        stamp.baseAddress?.assumingMemoryBound(to: UInt8.self), stamp.count, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                        pem.baseAddress?.assumingMemoryBound(to: CChar.self), pem.count, trust.includesSystem ? 1 : 0, &result)
                }
            }
        }
        guard ok != 0 else { throw RendererError(.limitExceeded, "out of memory checking a timestamp") }
        return result
    }

    /// `invalidArgument` when PEM anchors were given but held no certificate.
    private func checkAnchorsRead(_ count: Int32) throws {
        if !trust.pem.isEmpty, count == 0 { throw RendererError(.invalidArgument, "the trust anchors hold no PEM certificate") }
    }

    /// The findings on `who`'s chain, checked at `time`, and on its revocation when a
    /// revocation list or OCSP response of its issuer spoke of it (`revocationChecked`).
    private static func chainReasons(_ chain: sigcrypto_chain, of who: String, at time: Date, _ message: String, revocationChecked: Bool) -> [Reason] {
        switch chain {
        case SIGCRYPTO_CHAIN_TRUSTED:
            [Reason(.trusted, "\(who) leads to a trust anchor")]
                + (revocationChecked ? [Reason(.notRevoked, "the revocation list or OCSP response of its issuer (given, or kept in the document) says \(who) is not revoked")] : [])
        case SIGCRYPTO_CHAIN_UNTRUSTED: [Reason(.untrusted, "\(who) leads to no trust anchor given (\(message))")]
        case SIGCRYPTO_CHAIN_FAILED: [Reason(.chainRefused, "a certificate of the chain of \(who) was refused at \(format(time)): \(message)")]
        case SIGCRYPTO_CHAIN_REVOKED: [Reason(.revoked, "the revocation list or OCSP response of its issuer (given, or kept in the document) says \(who) is revoked")]
        default: [Reason(.noTrustAnchor, "no trust anchor was given, so \(who) is not known")]
        }
    }

    /// What the signature covers: the whole file, or its revision and what later ones changed.
    /// `lock` is the fields the signature's field locks.
    private func coverage(_ ranges: SignedRanges, lock: FieldLock?) throws -> [Reason] {
        if ranges.end == data.count { return [Reason(.coversWholeFile, "the signature covers the whole file")] }
        return [
            Reason(.coversItsRevision, "the signature covers its revision, the file's first \(ranges.end) of \(data.count) bytes"),
            try RevisionComparison(document: document, data: data, signedLength: ranges.end, certification: certification, lock: lock).reason(),
        ]
    }

    private static func format(_ date: Date) -> String {
        ISO8601DateFormatter().string(from: date)
    }
}
