import ArgumentParser
import Foundation
import HostCommands
import RendererProvider

/// `hostapp protect`: a copy of a PDF with a user and an owner password and the permissions
/// the user password grants.
struct ProtectCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "protect", abstract: "Write a copy of a PDF protected by passwords, with what it permits.",
        discussion: """
            The owner password opens the copy with every permission; the user password (none: anyone \
            may open it) with the permissions of --allow only. The copy is a whole new file, AES-256 \
            encrypted unless --method says aes-128. An encrypted input is opened with the owner \
            password (--password or --password-file). Passwords are best given in files: other users \
            may see a command line.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The protected copy.", valueName: "output")) var output: String
    @Option(help: ArgumentHelp("The owner password.", valueName: "password")) var ownerPassword: String?
    @Option(help: ArgumentHelp("A file whose first line is the owner password (- for standard input).", valueName: "file"))
    var ownerPasswordFile: String?
    @Option(help: ArgumentHelp("The user password; none lets anyone open the copy.", valueName: "password")) var userPassword: String?
    @Option(help: ArgumentHelp("A file whose first line is the user password.", valueName: "file")) var userPasswordFile: String?
    @Option(
        help: ArgumentHelp(
            "What the user password permits, comma-separated: \(PermissionList.names), all or none.", valueName: "permissions"))
    var allow = PermissionList.defaultValue
    @Option(help: ArgumentHelp("aes-256 or aes-128.", valueName: "method")) var method: PasswordProtection.Method = .aes256
    @OptionGroup var documentArguments: DocumentArguments

    func execute() throws {
        guard let owner = try DataFiles.secret(ownerPassword, orFile: ownerPasswordFile, option: "--owner-password") else {
            throw RendererError(.invalidArgument, "give the owner password: --owner-password or --owner-password-file")
        }
        let protection = PasswordProtection(
            userPassword: try DataFiles.secret(userPassword, orFile: userPasswordFile, option: "--user-password") ?? "", ownerPassword: owner,
            permissions: try PermissionList.parse(allow), method: method)
        let session = try global.openSession(file)
        defer { session.close() }
        try session.save(to: output, protection: protection)
        let granted = protection.permissions.names
        print("wrote \(output) (\(method.rawValue.uppercased()), the user password permits \(granted.isEmpty ? "nothing" : granted.joined(separator: ", ")))")
    }
}

/// `hostapp unprotect`: an unencrypted copy of a PDF opened with its owner password.
struct UnprotectCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "unprotect", abstract: "Write an unencrypted copy of a password-protected PDF.",
        discussion: """
            The input is opened with --password or --password-file, which must be its owner password \
            unless the user password permits everything: the permissions a document's owner set are \
            not removed by someone who only may read it.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The unencrypted copy.", valueName: "output")) var output: String
    @OptionGroup var documentArguments: DocumentArguments

    func execute() throws {
        let session = try global.openSession(file)
        defer { session.close() }
        try session.save(to: output, protection: nil)
        print("wrote \(output) without encryption")
    }
}

/// The permissions `--allow` names.
enum PermissionList {
    /// Every permission's name, as ``DocumentPermissions/named`` spells it.
    static let names = DocumentPermissions.named.map(\.name).joined(separator: ", ")

    /// Reading for accessibility only, which PDF 2.0 asks readers to allow always.
    static let defaultValue = "extract-for-accessibility"

    /// The permissions `text` names, `all` and `none` among them; `invalidArgument` naming an
    /// unknown one.
    static func parse(_ text: String) throws -> DocumentPermissions {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.contains("all") { return .all }
        return try DocumentPermissions(names: names.filter { $0 != "none" })
    }
}

extension PasswordProtection.Method: ExpressibleByArgument {}
