import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererSignatures

struct LTVCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "ltv", abstract: "Add long-term validation data to a signed PDF (PAdES B-LT), and a document timestamp after it (B-LTA).",
        discussion: """
            The document security store gets every certificate the signatures and their timestamps carry, with the \
            CRLs, OCSP responses and certificates given (DER files). With --tsa, a document timestamp from that \
            authority follows, in an update of its own. Earlier signatures stay valid; OUT is written only when all \
            of it succeeds.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The signed PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Option(name: .customLong("crl"), help: ArgumentHelp("A CRL (DER) to keep (repeatable).", valueName: "file"), completion: .file())
    var crls: [String] = []

    @Option(name: .customLong("ocsp"), help: ArgumentHelp("An OCSP response (DER) to keep (repeatable).", valueName: "file"), completion: .file())
    var ocspResponses: [String] = []

    @Option(name: .customLong("certificate"), help: ArgumentHelp("Another certificate (DER) to keep (repeatable).", valueName: "file"), completion: .file())
    var certificates: [String] = []

    @Option(help: ArgumentHelp("The time-stamping authority (RFC 3161) whose document timestamp follows.", valueName: "url"))
    var tsa: TimestampAuthority?

    @Option(name: .shortAndLong, help: "The file to write.", completion: .file(extensions: ["pdf"]))
    var output: String
    @OptionGroup var globalArguments: GlobalArguments

    func execute() throws {
        let document = try global.open(file, needing: [.sign])
        try global.checkSettings(permit: [.signing, .saveTo], on: file, opened: document)
        let extra = ValidationData(
            certificates: try certificates.map(DataFiles.read), crls: try crls.map(DataFiles.read), ocspResponses: try ocspResponses.map(DataFiles.read))
        var result = try document.addingValidationData(extra)
        if let authority = tsa {
            // The file with its validation data, read by the same engine.
            result = try document.revision(endingAt: result.count, of: result).timestamp(authority: authority)
        }
        try DataFiles.write(result, to: output)
        print(tsa == nil ? "validation data added into \(output)" : "validation data and a document timestamp added into \(output)")
    }
}

/// A time-stamping authority's address as `--tsa` gives it: an http or https URL.
extension TimestampAuthority: ExpressibleByArgument {
    public init?(argument: String) {
        guard let url = URL(string: argument), let authority = try? TimestampAuthority(url: url) else { return nil }
        self = authority
    }
}
