import ArgumentParser
import RendererProvider

/// Where and how a changed document is saved.
package struct SaveOptions: ParsableArguments {
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Save to this file instead of over the input.", valueName: "output"))
    package var output: String?

    @Option(help: ArgumentHelp("automatic (incremental where the file allows), incremental or rewrite.", valueName: "mode"))
    package var saveMode: SaveMode = .automatic

    package init() {}

    /// Opens a session on `file` to change it (its settings and the PDF's permissions
    /// enforced), lets `change` change it, then saves the document atomically to the output
    /// (default: over `file`) and returns what `change` did. A file on disk is changed by one
    /// writer at a time: the output's ``FileWriteLock`` is held from before `file` is opened
    /// until the save is in place (`conflict` when another writer keeps it past the wait).
    /// In a vault, whose files on disk are not named as the command names them, the lock is
    /// the vault folder's: one writer in the vault at a time.
    package func edit<T>(_ file: String, with global: GlobalOptions, _ change: (ReadingSession) throws -> T) throws -> T {
        try FileWriteLock.holding(global.vault ?? output ?? file) { try editUnlocked(file, with: global, change) }
    }

    private func editUnlocked<T>(_ file: String, with global: GlobalOptions, _ change: (ReadingSession) throws -> T) throws -> T {
        let session = try global.openSession(file)
        defer { session.close() }
        try session.check(output == nil ? .save : .saveTo)
        let result = try change(session)
        if let output { try session.save(to: output, mode: saveMode) } else { try session.save(mode: saveMode) }
        return result
    }
}
