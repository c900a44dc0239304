import ArgumentParser
import Foundation
import RendererProvider

struct SignaturesCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "signatures", abstract: "List the signature fields and what their signatures say (nothing is verified).",
        discussion: """
            The signer, time, reason and location are what the signature dictionary says; "whole file" \\
            means the signed byte ranges run from the first byte to the last, so nothing was appended \\
            after signing.
            """)

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        try Failure.reporting {
            let fields = try global.open(file, needing: [.signatures]).signatureFields()
            if json { return try JSONOutput.print(fields) }
            if fields.isEmpty { print("(no signature fields)") }
            let dateFormat = ISO8601DateFormatter()
            for field in fields {
                let page = field.pageIndex.map { "page \($0 + 1)" } ?? "no page"
                print("\(field.name) (\(page)): \(field.isSigned ? "signed" : "not signed")")
                guard field.isSigned else { continue }
                let rows: [(String, String?)] = [
                    ("Signer", field.signerName), ("Time", field.signingTime.map(dateFormat.string)), ("Reason", field.reason),
                    ("Location", field.location), ("Type", field.subFilter),
                    ("Ranges", field.byteRanges.map { "\($0.offset)+\($0.length)" }.joined(separator: ", ")),
                    ("Whole file", field.coversWholeFile ? "yes" : "no"),
                ]
                for case let (name, value?) in rows {
                    print("  " + "\(name):".padding(toLength: 12, withPad: " ", startingAt: 0) + value)
                }
            }
        }
    }
}
