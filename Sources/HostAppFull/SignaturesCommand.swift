import ArgumentParser
import Foundation
import HostCommands
import RendererProvider
import RendererSignatures

struct SignaturesCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "signatures", abstract: "List the signature fields and what their signatures say, or verify them.",
        discussion: """
            Without --verify, the signer, time, reason and location are what the signature dictionary says; \
            "whole file" means the signed byte ranges run from the first byte to the last, so nothing was appended \
            after signing. With --verify, each signature is checked (its bytes, its certificate against the trust \
            anchors given, what later revisions changed) and gets a verdict, valid, invalid or unknown, with its \
            reasons; the exit status is 1 when any signature is invalid.
            """)

    @ParentCommand var hostApp: HostApp

    @Flag(help: "Verify each signature.")
    var verify = false

    /// The anchors `--verify` checks signers against.
    @OptionGroup var trust: TrustOptions

    @Flag(help: "Print JSON.")
    var json = false
    @OptionGroup var documentArguments: DocumentArguments

    func validate() throws {
        guard verify || trust.isEmpty else { throw ValidationError("--trust and --system-trust go with --verify") }
    }

    /// The fields a lock holds, in words.
    private static func describe(_ lock: FieldLock) -> String {
        switch lock {
        case .all: "every field"
        case .only(let names): names.joined(separator: ", ")
        case .allBut(let names): "every field but " + names.joined(separator: ", ")
        }
    }

    func execute() throws {
        let document = try global.open(file, needing: [.signatures])
        if verify { return try printVerdicts(of: document) }
        let fields = try document.signatureFields()
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
                ("Whole file", field.coversWholeFile ? "yes" : "no"), ("Locks", field.lock.map(Self.describe)),
            ]
            for case let (name, value?) in rows {
                print("  " + "\(name):".rightPadded(to: 12) + value)
            }
        }
    }

    private func printVerdicts(of document: Document) throws {
        let verdicts = try document.verifySignatures(trust: try trust.anchors())
        if json {
            try JSONOutput.print(verdicts)
        } else {
            if verdicts.isEmpty { print("(no signature fields)") }
            for verdict in verdicts {
                print("\(verdict.field): \(verdict.verdict.rawValue)" + (verdict.signer.map { " (\($0))" } ?? ""))
                for reason in verdict.reasons { print("  [\(reason.code.rawValue)] \(reason.message)") }
            }
        }
        if verdicts.contains(where: { $0.verdict == .invalid }) { throw ExitCode(1) }
    }
}
