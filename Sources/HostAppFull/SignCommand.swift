import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererSignatures

struct SignCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign", abstract: "Sign a PDF with a PKCS#12 identity, in an incremental update written to a new file.",
        discussion: """
            The signature goes into the unsigned signature field --field names, or into a new field on page --page \
            (over --rect, page space, when it is --visible; invisible otherwise). The identity's password is read \
            from --password-file (or --password, or $HOSTAPP_PASSWORD): encrypted documents are not signed, so the \
            document needs none. Earlier signatures stay valid. The output is written only when signing succeeds.
            """)

    enum Certify: String, ExpressibleByArgument, CaseIterable {
        case none, forms, annotations

        var permissions: CertificationPermissions? {
            switch self {
            case .none: nil
            case .forms: .formFilling
            case .annotations: .formFillingAndAnnotations
            }
        }
    }

    @ParentCommand var hostApp: HostApp

    @Option(name: .customLong("cert"), help: ArgumentHelp("The signer's PKCS#12 file (key, certificate and chain).", valueName: "p12"), completion: .file())
    var identity: String

    @Option(help: "The unsigned signature field to sign, by its fully qualified name.")
    var field: String?

    @Option(help: "The page of a new signature field (1-based).")
    var page: Int?

    @Option(help: ArgumentHelp("The new field's area on its page, in page space: x,y,width,height.", valueName: "x,y,w,h"))
    var rect: String?

    @Option(help: "The new field's name (default: the first free Signature1, Signature2…).")
    var name: String?

    @Flag(help: "Show the signer's name and the time in the field.")
    var visible = false

    @Option(help: "Why the document is signed.")
    var reason: String?

    @Option(help: "Where it is signed.")
    var location: String?

    @Option(help: "How to reach the signer.")
    var contact: String?

    @Option(help: "Certify the document, allowing later form filling (forms) or form filling and annotations (annotations).")
    var certify: Certify = .none
    @OptionGroup var documentArguments: DocumentArguments

    /// The encodings `--encoding` names.
    enum Encoding: String, ExpressibleByArgument, CaseIterable {
        case pades, pkcs7

        var encoding: SigningOptions.Encoding { self == .pkcs7 ? .pkcs7 : .cades }
    }

    /// The digests `--digest` names.
    enum Digest: String, ExpressibleByArgument, CaseIterable {
        case sha256, sha384, sha512

        var digest: SigningOptions.Digest { SigningOptions.Digest(rawValue: rawValue.uppercased())! }
    }

    @Option(help: "The encoding: pades (ETSI.CAdES.detached) or pkcs7 (adbe.pkcs7.detached).")
    var encoding: Encoding = .pades

    @Option(help: "The digest.")
    var digest: Digest = .sha256

    @Option(help: ArgumentHelp("A time-stamping authority (RFC 3161) whose timestamp of the signature it carries (PAdES B-T).", valueName: "url"))
    var tsa: TimestampAuthority?

    @Option(name: .shortAndLong, help: "The signed file to write.", completion: .file(extensions: ["pdf"]))
    var output: String

    func validate() throws {
        guard (field == nil) != (page == nil) else { throw ValidationError("give either --field or --page") }
        guard field == nil || (rect == nil && name == nil) else { throw ValidationError("--rect and --name go with --page, for a new field") }
        guard !visible || field != nil || rect != nil else { throw ValidationError("a visible signature in a new field needs --rect") }
    }

    func execute() throws {
        var options = global
        let password = try options.password() ?? ""
        (options.passwordArgument, options.passwordFile) = (nil, nil)
        let identity = try SigningIdentity(pkcs12File: self.identity, password: password)
        let document = try options.open(file, needing: [.sign])
        try options.checkSettings(permit: [.signing, .saveTo], on: file, opened: document)
        let placement: SigningOptions.Placement =
            if let field { .field(field) } else { .newField(name: name, pageIndex: page! - 1, area: try rect.map { try GeometryArgument.rectangle($0, option: "--rect") }) }
        let signed = try document.sign(
            with: identity,
            options: SigningOptions(
                placement: placement, isVisible: visible, encoding: encoding.encoding, digest: digest.digest,
                reason: reason, location: location, contactInfo: contact, certification: certify.permissions, timestampAuthority: tsa))
        try DataFiles.write(signed, to: output)
        print("signed by \(identity.commonName) into \(output)")
    }
}
