import ArgumentParser
import Foundation
import HostCommands
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

    /// Whether any anchor was named.
    var isEmpty: Bool { files.isEmpty && !system }

    /// The anchors the files hold, with the system's when asked, and the revocation lists;
    /// `ioFailure` for a file that cannot be read.
    func anchors() throws -> TrustAnchors {
        TrustAnchors(
            pem: try files.reduce(into: Data()) { $0.append(try DataFiles.read($1) + Data("\n".utf8)) }, revocationLists: try revocationLists.map(DataFiles.read),
            includesSystem: system)
    }
}
