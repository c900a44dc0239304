import ArgumentParser
import RendererProvider

/// Where and how a changed document is saved.
package struct SaveOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Save to this file instead of over the input.", valueName: "output"))
    package var output: String?

    @Flag(help: "Save over the input file, as qpdf's --replace-input does.")
    package var inPlace = false

    @Option(help: ArgumentHelp("automatic (incremental where the file allows), incremental or rewrite.", valueName: "mode"))
    package var saveMode: SaveMode = .automatic

    package init() {}

    package func validate() throws {
        if inPlace, output != nil { throw ValidationError("--in-place saves over the input and -o elsewhere: give one of them") }
    }

    /// What an edit given neither -o nor --in-place says before it saves over its input, as
    /// it did before --in-place existed; the next release will refuse such an edit.
    static let overwriteNote = "saving over the input because no -o was given; say --in-place for that (without either, the next release will refuse)"

    /// Opens a session on `file` to change it (its settings and the PDF's permissions
    /// enforced), lets `change` change it, then saves the document atomically to the output
    /// (with --in-place, or for now with a note when neither is given: over `file`) and
    /// returns what `change` did. A file on disk is changed by one
    /// writer at a time: the output's ``FileWriteLock`` is held from before `file` is opened
    /// until the save is in place (`conflict` when another writer keeps it past the wait).
    /// In a vault, whose files on disk are not named as the command names them, the lock is
    /// the vault folder's: one writer in the vault at a time.
    package func edit<T>(_ file: String, with global: GlobalOptions, _ change: (ReadingSession) throws -> T) throws -> T {
        try Self.edit(file, savingTo: output, mode: saveMode, notingOverwrite: output == nil && !inPlace, with: global, change)
    }

    /// Opens a session on `file` to change it (its settings and the PDF's permissions
    /// enforced: saving over it or to another file among them), lets `change` change it, then
    /// saves the document atomically to `output`, or over `file` when nil, and returns what
    /// `change` did; the output's ``FileWriteLock`` is held throughout, as ``edit(_:with:_:)``
    /// says. `notingOverwrite` prints ``overwriteNote`` once the session is open. Every front
    /// end that edits goes through here: the editing commands and the MCP server's tools.
    package static func edit<T>(
        _ file: String, savingTo output: String?, mode: SaveMode, notingOverwrite: Bool = false, with global: GlobalOptions,
        _ change: (ReadingSession) throws -> T
    ) throws -> T {
        try FileWriteLock.holding(global.vault ?? output ?? file) {
            let session = try global.openSession(file)
            defer { session.close() }
            try session.check(output == nil ? .save : .saveTo)
            if notingOverwrite { Failure.printNote(overwriteNote) }
            let result = try change(session)
            if let output { try session.save(to: output, mode: mode) } else { try session.save(mode: mode) }
            return result
        }
    }
}
