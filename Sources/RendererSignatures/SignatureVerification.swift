import Foundation

/// What checking one signature field found: a verdict and the reasons for it, in words and codes.
public struct SignatureVerification: Hashable, Sendable, Codable {
    /// The overall answer for a field.
    public enum Verdict: String, Hashable, Sendable, Codable {
        /// Intact, signed by a certificate that leads to a trust anchor and was good when it
        /// signed, and nothing changed after it that it does not allow.
        case valid
        /// Something failed: the signed bytes or the signature, the certificate, the ranges,
        /// or a change made after signing.
        case invalid
        /// Nothing failed, but something could not be established: no trust anchor given or
        /// reached, a field without a signature, a kind of signature not checked.
        case unknown
    }

    /// One finding, with the part it plays in the verdict.
    public struct Reason: Hashable, Sendable, Codable {
        /// What was found.
        public var code: Code
        /// The finding in words.
        public var message: String

        /// A finding.
        public init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// The findings, each of which passes, fails or leaves the verdict open (``effect``).
    public enum Code: String, Hashable, Sendable, Codable, CaseIterable {
        /// The field holds no signature.
        case notSigned
        /// The signature's encoding (`/SubFilter`) is not one checked here.
        case unsupportedEncoding
        /// The byte ranges do not run from the file's start to the end of a revision, leaving
        /// out only the signature.
        case malformedRanges
        /// The signature is not a CMS signature with one signer and its certificate.
        case malformedSignature
        /// The signed bytes' digest and the signature match the signer's key.
        case intact
        /// The signed bytes were changed, or the signature does not match.
        case signatureMismatch
        /// The signer's certificate was not valid at the signing time.
        case certificateNotCurrent
        /// The signer's certificate may not sign (its key usage lacks digital signature and
        /// non-repudiation), or a document timestamp's authority may not stamp times (its
        /// extended key usage is not timeStamping alone, marked critical).
        case keyUsage
        /// The signer's certificate leads to a trust anchor.
        case trusted
        /// No trust anchor was given.
        case noTrustAnchor
        /// The certificate leads to no trust anchor given.
        case untrusted
        /// A certificate of the chain was refused (expired, not yet valid, badly signed).
        case chainRefused
        /// A certificate revocation list or OCSP response of the certificate's issuer (given
        /// with the trust anchors, or kept in the document security store) says it is revoked.
        case revoked
        /// A certificate revocation list or OCSP response of the certificate's issuer (given
        /// with the trust anchors, or kept in the document security store) says it is not.
        case notRevoked
        /// A timestamp (RFC 3161) of the signature's value verifies and its authority leads to
        /// a trust anchor: the signature existed at the timestamp's time.
        case timestamped
        /// The signature's timestamp verifies, but its authority leads to no trust anchor given.
        case timestampUntrusted
        /// The signature's timestamp does not stamp this signature, its own signature fails, or
        /// its authority may not stamp times (or was refused).
        case timestampMismatch
        /// The signature covers the whole file.
        case coversWholeFile
        /// The signature covers its revision; later revisions follow.
        case coversItsRevision
        /// Later revisions changed annotations, form values, metadata or added signatures:
        /// what a signed document may receive.
        case allowedChanges
        /// Later revisions changed the pages themselves (their number, boxes, text or drawing).
        case changedAfterSigning
        /// The signed revision could not be compared with the document (encrypted, or not
        /// opened).
        case revisionNotCompared

        /// The part the finding plays in the verdict.
        public var effect: Effect {
            switch self {
            case .intact, .trusted, .notRevoked, .timestamped, .coversWholeFile, .coversItsRevision, .allowedChanges: .passes
            case .notSigned, .unsupportedEncoding, .noTrustAnchor, .untrusted, .timestampUntrusted, .revisionNotCompared: .leavesOpen
            case .malformedRanges, .malformedSignature, .signatureMismatch, .certificateNotCurrent, .keyUsage, .chainRefused, .revoked, .timestampMismatch,
                .changedAfterSigning:
                .fails
            }
        }
    }

    /// How a finding weighs: any failure makes the verdict invalid; else any open finding
    /// makes it unknown.
    public enum Effect: String, Hashable, Sendable, Codable {
        /// The finding supports a valid verdict.
        case passes
        /// The finding makes the verdict invalid.
        case fails
        /// The finding makes the verdict unknown, unless another fails it.
        case leavesOpen
    }

    /// The field's fully qualified name.
    public var field: String
    /// The verdict the reasons give.
    public var verdict: Verdict
    /// The findings, in the order they were checked.
    public var reasons: [Reason]
    /// The signer certificate's subject (RFC 2253), when the signature could be read; for a
    /// document timestamp, its authority's.
    public var signer: String?
    /// The signing time the signature's signed attributes give, when they give one; for a
    /// document timestamp, its time.
    public var signingTime: Date?
    /// The time a verified timestamp gives: the signature's timestamp, or a document
    /// timestamp's own.
    public var timestampTime: Date?
    /// The digest algorithm, such as `SHA256`.
    public var digestAlgorithm: String?

    /// A result whose verdict is derived from `reasons`.
    public init(
        field: String, reasons: [Reason], signer: String? = nil, signingTime: Date? = nil, digestAlgorithm: String? = nil, timestampTime: Date? = nil
    ) {
        self.field = field
        self.reasons = reasons
        self.signer = signer
        self.signingTime = signingTime
        self.timestampTime = timestampTime
        self.digestAlgorithm = digestAlgorithm
        verdict = reasons.contains { $0.code.effect == .fails } ? .invalid : reasons.contains { $0.code.effect == .leavesOpen } ? .unknown : .valid
    }
}
