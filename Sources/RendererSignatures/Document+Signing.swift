import Foundation
import RendererProvider

/// Signing a document's file.
extension Document {
    /// The document's saved file signed by `identity` as `options` say, in an incremental
    /// update after the file's bytes (so earlier signatures stay valid): a detached CMS
    /// signature of the update's byte ranges made by OpenSSL, in an existing unsigned field
    /// or a new one, visible or not, certifying the document when asked.
    ///
    /// Nothing is written: the caller stores the bytes returned. Refused with nothing made:
    /// - `expired` when the certificate is not valid at `options.date`; `notPermitted` when
    ///   its key usage does not allow signing;
    /// - `notPermitted` when the document's permissions forbid filling in forms (or, for a
    ///   new field, annotating), or its certification allows no change;
    /// - `invalidArgument` for unsaved changes, a field that is missing, signed already, or
    ///   not a signature field, a new field's name taken, an area that is not finite and
    ///   positive, a visible new field without one, or a certification after another signature;
    /// - `pageOutOfRange` for a new field on a page the document lacks;
    /// - `unsupported` for an engine without `Capability.sign`, an encrypted file, or one
    ///   the engine repaired.
    public func sign(with identity: SigningIdentity, options: SigningOptions = SigningOptions()) throws -> Data {
        try SigningPlan(document: self, identity: identity, options: options).sign().data
    }

    /// The document's saved file with a document timestamp (`ETSI.RFC3161`, a `/DocTimeStamp`
    /// in a new invisible field `Timestamp1`, `Timestamp2`…): `authority`'s RFC 3161 token over
    /// the `digest` digest of the update's byte ranges, as PAdES B-LTA adds after the
    /// validation data. Refused as ``sign(with:options:)`` refuses, but after any
    /// certification, which PAdES lets timestamps follow; `ioFailure` when the authority
    /// cannot be reached or refuses. Nothing is written.
    public func timestamp(authority: TimestampAuthority, digest: SigningOptions.Digest = .sha256) throws -> Data {
        try SigningPlan(document: self, authority: authority, digest: digest).sign().data
    }
}

/// Signing through a session.
extension ReadingSession {
    /// Signs the session's file as `Document.sign(with:options:)` does and saves the
    /// result over it (an incremental update: with a save's events, vetoes and copy-back),
    /// then tells `SessionEvent.signed`. Needs the `SessionFeature.signing` and
    /// `SessionFeature.save` settings (`notPermitted`), a file state that is not read-only,
    /// and no unsaved changes (`invalidArgument`: save them first). Undo and redo are
    /// cleared, since the signature covers everything done before it.
    @discardableResult
    public func sign(with identity: SigningIdentity, options: SigningOptions = SigningOptions()) throws -> SaveResult {
        try replaceFile(needing: [.signing]) { document in
            try SigningPlan(document: document, identity: identity, options: options).sign()
        }
    }
}

/// The checks and the steps of one signature or document timestamp.
struct SigningPlan {
    /// What makes the signature value over the signed bytes.
    enum Signer {
        /// A CMS signature by an identity, as the options say.
        case certificate(SigningIdentity, SigningOptions)
        /// An authority's RFC 3161 timestamp token over the bytes' digest (`ETSI.RFC3161`).
        case timestamp(TimestampAuthority, SigningOptions.Digest)
    }

    let document: Document
    let signer: Signer

    /// The room a document timestamp's token gets: tokens with the authority's chain take a
    /// few kilobytes.
    static let timestampCapacity = 16_384

    init(document: Document, identity: SigningIdentity, options: SigningOptions) {
        self.document = document
        signer = .certificate(identity, options)
    }

    init(document: Document, authority: TimestampAuthority, digest: SigningOptions.Digest) {
        self.document = document
        signer = .timestamp(authority, digest)
    }

    /// The signed file, and the name of the field signed.
    func sign() throws -> (data: Data, signedField: String) {
        if case .certificate(let identity, let options) = signer { try Self.check(identity, at: options.date) }
        let request = try request()
        var prepared = try document.preparedSignatureUpdate(request)
        let data = prepared.data
        var content = Data(capacity: data.count)
        for range in prepared.byteRanges { content.append(data[range.offset..<(range.offset + range.length)]) }
        let signature = try value(over: content)
        guard signature.count <= request.signatureCapacity else {
            throw RendererError(.engineFailure, "the signature took \(signature.count) bytes, more than the \(request.signatureCapacity) reserved", rendererID: document.renderer.id)
        }
        let hex = Data(signature.map { String(format: "%02X", $0) }.joined().utf8)
        let start = prepared.byteRanges[0].length + 1
        prepared.data.replaceSubrange(start..<(start + hex.count), with: hex)
        switch request.placement {
        case .field(let name), .newField(let name, _, _): return (prepared.data, name)
        }
    }

    /// The signature value over the signed bytes: a CMS signature (with its timestamp when
    /// asked), or a timestamp token.
    private func value(over content: Data) throws -> Data {
        switch signer {
        case .certificate(let identity, let options):
            let signature = try identity.sign(content, digest: options.digest.rawValue, cades: options.encoding == .cades)
            return try options.timestampAuthority.map { try $0.stampingSignature(signature, digest: options.digest.rawValue) } ?? signature
        case .timestamp(let authority, let digest):
            return try authority.stamp(content, digest: digest.rawValue).token
        }
    }

    private static func check(_ identity: SigningIdentity, at date: Date) throws {
        guard identity.isValid(at: date) else {
            throw RendererError(.expired, "the signer's certificate is not valid at the signing time (it is valid from \(format(identity.notBefore)) to \(format(identity.notAfter)))")
        }
        guard identity.keyUsageAllowsSigning else {
            throw RendererError(.notPermitted, "the signer's certificate may not sign documents (its key usage has neither digitalSignature nor nonRepudiation)")
        }
    }

    /// What the engine lays out, after the document's rules are checked.
    private func request() throws -> SignatureUpdateRequest {
        let backend = document.renderer.id
        let fields = try document.signatureFields()
        let permissions = try document.info().permissions
        guard permissions.contains(.fillForms) else {
            throw RendererError(.notPermitted, "the document's permissions do not allow filling in its form, which signing is", rendererID: backend)
        }
        switch signer {
        case .timestamp:
            // PAdES lets a document timestamp follow any certification (ISO 32000-2, 12.8.2.2).
            guard permissions.contains(.annotate) else {
                throw RendererError(.notPermitted, "the document's permissions do not allow adding a timestamp's field", rendererID: backend)
            }
            return SignatureUpdateRequest(
                placement: .newField(name: try fieldName(nil, among: fields, prefix: "Timestamp"), pageIndex: 0, area: nil),
                subFilter: SignatureUpdateRequest.documentTimestamp, signerName: nil, signingTime: Date(), signatureCapacity: Self.timestampCapacity)
        case .certificate(let identity, let options):
            if fields.contains(where: { $0.certification == .noChanges }) {
                throw RendererError(.notPermitted, "the document is certified with no change allowed, signing included", rendererID: backend)
            }
            if options.certification != nil, fields.contains(where: \.isSigned) {
                throw RendererError(.invalidArgument, "only a document's first signature can certify it; this one is signed already", rendererID: backend)
            }
            let placement = try placement(options, fields: fields, permissions: permissions)
            // The room for the value: a signature of a few bytes is as long as the real one
            // (the digest and the key fix its size) but for a few bytes of DER.
            var capacity = try identity.sign(Data("capacity".utf8), digest: options.digest.rawValue, cades: options.encoding == .cades).count + 256
            if options.timestampAuthority != nil { capacity += Self.timestampCapacity }
            let lines = options.isVisible ? appearanceLines(identity, options) : []
            return SignatureUpdateRequest(
                placement: placement, subFilter: options.encoding.rawValue, signerName: identity.commonName, signingTime: options.date,
                reason: options.reason, location: options.location, contactInfo: options.contactInfo, certification: options.certification,
                appearanceLines: lines, appearanceFont: AppearanceFont.subset(for: lines), signatureCapacity: capacity)
        }
    }

    /// Where `options` put the signature, checked against the document.
    private func placement(_ options: SigningOptions, fields: [SignatureField], permissions: DocumentPermissions) throws -> SignatureUpdateRequest.Placement {
        let backend = document.renderer.id
        switch options.placement {
        case .field(let name):
            guard let field = fields.first(where: { $0.name == name }) else {
                throw RendererError(.invalidArgument, "the document has no signature field \(name)", rendererID: backend)
            }
            guard !field.isSigned else { throw RendererError(.invalidArgument, "the field \(name) is signed already", rendererID: backend) }
            return .field(name)
        case .newField(let name, let pageIndex, let area):
            guard permissions.contains(.annotate) else {
                throw RendererError(.notPermitted, "the document's permissions do not allow adding a signature field", rendererID: backend)
            }
            guard (0..<document.pageCount).contains(pageIndex) else {
                throw RendererError(.pageOutOfRange, "the document has no page \(pageIndex + 1)", rendererID: backend)
            }
            if let area {
                let numbers = [area.minX, area.minY, area.maxX, area.maxY]
                guard numbers.allSatisfy(\.isFinite), area.maxX - area.minX >= 1, area.maxY - area.minY >= 1 else {
                    throw RendererError(.invalidArgument, "a signature's area must be finite and at least a point wide and high", rendererID: backend)
                }
            } else if options.isVisible {
                throw RendererError(.invalidArgument, "a visible signature in a new field needs an area", rendererID: backend)
            }
            return .newField(name: try fieldName(name, among: fields, prefix: "Signature"), pageIndex: pageIndex, area: options.isVisible ? area : nil)
        }
    }

    /// `given` when it is free and a partial name (no dot), else the first free `prefix`N.
    private func fieldName(_ given: String?, among signatures: [SignatureField], prefix: String) throws -> String {
        let taken = Set(signatures.map(\.name) + (try document.formFields()).map(\.name))
        if let given {
            guard !given.isEmpty, !given.contains("."), given.count <= 200, !taken.contains(given) else {
                throw RendererError(.invalidArgument, "a new signature field needs a name of its own without a dot; \(given) is not one", rendererID: document.renderer.id)
            }
            return given
        }
        return (1...).lazy.map { "\(prefix)\($0)" }.first { !taken.contains($0) }!
    }

    /// The lines a visible signature shows.
    private func appearanceLines(_ identity: SigningIdentity, _ options: SigningOptions) -> [String] {
        var lines = ["Digitally signed by \(identity.commonName)", "Date: \(Self.format(options.date))"]
        if let reason = options.reason { lines.append("Reason: \(reason)") }
        if let location = options.location { lines.append("Location: \(location)") }
        return lines
    }

    /// A time as `2026-11-27 14:05:00 UTC`.
    private static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
