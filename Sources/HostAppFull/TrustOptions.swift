import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererSignatures

/// The certificates signers' chains may lead to, as `signatures --verify` and `serve` take them.
struct TrustOptions: ParsableArguments {
    @Option(name: .customLong("trust"), help: ArgumentHelp("A PEM file of certificates signers' chains may lead to (repeatable).", valueName: "pem"), completion: .file())
    var files: [String] = []

    @Flag(name: .customLong("system-trust"), help: "Trust the system's certificates too.")
    var system = false

    @Option(
        name: .customLong("crl"),
        help: ArgumentHelp("A certificate revocation list (DER or PEM) to check certificates its issuer issued against (repeatable).", valueName: "file"),
        completion: .file())
    var revocationLists: [String] = []

    @Option(
        name: .customLong("ocsp"), help: ArgumentHelp("An OCSP response (DER) to check certificates against (repeatable).", valueName: "file"),
        completion: .file())
    var ocspResponses: [String] = []

    /// Whether any anchor was named.
    var isEmpty: Bool { files.isEmpty && !system }

    /// The anchors the files hold, with the system's when asked, and the revocation lists and
    /// OCSP responses;
    /// `ioFailure` for a file that cannot be read, `invalidArgument` for one that holds no
    /// PEM certificate (so that a server does not start trusting nothing it was given).
    func anchors() throws -> TrustAnchors {
        var pem = Data()
        for file in files {
            let text = try DataFiles.read(file)
            guard text.range(of: Data("-----BEGIN CERTIFICATE-----".utf8)) != nil else {
                throw RendererError(.invalidArgument, "--trust \(file) holds no PEM certificate")
            }
            pem += text + Data("\n".utf8)
        }
        return TrustAnchors(
            pem: pem, revocationLists: try revocationLists.map(DataFiles.read), ocspResponses: try ocspResponses.map(DataFiles.read), includesSystem: system)
    }
}
