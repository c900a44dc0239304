import ArgumentParser
import HostCommands
import Foundation
import RendererProvider
import RendererProviderVault

struct VaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Keep documents in an encrypted vault that every reading command opens with --vault and --key-file.",
        discussion: """
            A vault is a directory whose files are sealed in chunks with AES-GCM under a
            256-bit key: documents in it never touch the disk in plain text, and a changed,
            cut or reordered file is refused (exit 65). Entry names are not secret.

              hostapp vault key -o vault.key
              hostapp vault encrypt report.pdf --vault books --key-file vault.key
              hostapp render report.pdf --vault books --key-file vault.key -o pages/
              hostapp vault decrypt report.pdf --vault books --key-file vault.key -o copy.pdf
            """,
        subcommands: [Key.self, Encrypt.self, Decrypt.self, List.self])

    /// The vault of the global options; `invalidArgument` without one.
    static func vault(_ global: GlobalOptions) throws -> any FileSystem {
        guard global.vault != nil else { throw RendererError(.invalidArgument, "give the vault with --vault and --key-file") }
        return try global.fileSystem()
    }

    struct Key: ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "key", abstract: "Make a new random key file, readable by its owner only.")

        @Option(name: [.customShort("o"), .long], help: "The key file to create (never replaced).") var output: String

        func execute() throws {
            try VaultKey.generate().write(toFile: output)
        }
    }

    struct Encrypt: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "encrypt", abstract: "Seal a file into the vault, making the vault's folder (owner-only) if it does not exist.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The plain file.") var file: String
        @Option(name: .customLong("as"), help: "The entry's path in the vault (default: the file's name).") var entry: String?
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            // Sealing the first file makes the vault: its folder, owner-only, when missing
            // (once the file and the key have been read, so that a mistake makes nothing).
            let plain = try LocalFileSystem().openForReading(file)
            if let folder = global.vault, let keyFile = global.keyFile {
                _ = try VaultKey(contentsOfFile: keyFile)
                try VaultFileSystem.makeFolder(at: folder)
            }
            let vault = try VaultCommand.vault(global)
            let name = entry ?? URL(fileURLWithPath: file).lastPathComponent
            try vault.replaceAtomically(name) { try plain.copy(into: $0) }
            print(name)
        }
    }

    struct Decrypt: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(commandName: "decrypt", abstract: "Write a vault entry out in plain text.")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The entry's path in the vault.") var entry: String
        @Option(name: [.customShort("o"), .long], help: "The plain file to write (atomically).") var output: String
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            let vault = try VaultCommand.vault(global)
            let contents = try vault.openForReading(entry).readAll()
            try LocalFileSystem().replaceAtomically(output) { target in try contents.withUnsafeBytes { try target.write($0) } }
        }
    }

    struct List: HostSubcommand, ReportingCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List a vault directory's entries: size, and whether each is whole and the one the vault wrote (every chunk is checked).")

        @ParentCommand var hostApp: HostApp
        @Argument(help: "The directory in the vault (default: its top).") var directory: String = ""
        @Flag(help: "Print JSON.") var json = false
        @OptionGroup var globalArguments: GlobalArguments

        func execute() throws {
            let vault = try VaultCommand.vault(global)
            var rows: [[String: Any]] = []
            for name in try vault.contentsOfDirectory(at: directory) {
                let path = directory.isEmpty ? name : directory + "/" + name
                do {
                    let attributes = try vault.attributes(of: path)
                    if !attributes.isDirectory, let vault = vault as? VaultFileSystem { try vault.verify(path) }  // every chunk
                    rows.append(["name": name, "size": attributes.size, "status": attributes.isDirectory ? "directory" : "ok"])
                } catch let error as RendererError {
                    rows.append(["name": name, "status": error.code.rawValue])
                }
            }
            if json {
                let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys, .prettyPrinted])
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            } else {
                for row in rows {
                    print("\(row["status"]!)\t\(row["size"].map { "\($0)" } ?? "-")\t\(row["name"]!)")
                }
            }
        }
    }
}
