#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// Saves the document with its changes over the file it was opened from.
    /// See ``save(to:mode:)-(String,_)``; throws `invalidArgument` for a document opened from memory.
    public func save(mode: SaveMode = .automatic) throws {
        guard case .file(let path) = engine.withLock({ $0.source }) else {
            throw RendererError(.invalidArgument, "the document was opened from memory and has no file to save over; give a path to save to")
        }
        try save(to: path, mode: mode)
    }

    /// Saves the document with its changes to `path`, which may be the file it was opened from.
    ///
    /// The new file is written next to `path` under a temporary name and renamed over `path`
    /// only once complete and flushed to disk, so `path` is at every moment either what it
    /// was or the complete new file; after a failure it is unchanged and the temporary file
    /// is gone. Encryption is kept. The document then continues as the saved file, without
    /// unsaved changes (positional annotation keys are computed afresh from it).
    ///
    /// Throws `invalidArgument` when `mode` is `incremental` and the file cannot be saved
    /// that way, `unsupported` for `rewrite` on a renderer that cannot, and `ioFailure`
    /// when the directory cannot be written.
    public func save(to path: String, mode: SaveMode = .automatic) throws {
        try require(.save)
        let password = self.password
        try withEngineState { state in
            let incremental = try Self.incremental(mode, state: state)
            let document = try state.document(as: DocumentSaving.self)
            try AtomicFile.replace(path) { temporaryPath in
                try document.write(to: temporaryPath, incremental: incremental)
            }
            state.document = try state.renderer.openDocument(.file(path), password: password, limits: limits)
            state.source = .file(path)
            state.hasUnsavedChanges = false
        }
    }

    /// Saves the document to the local file `url` names, as ``save(to:mode:)-(String,_)``
    /// does; `invalidArgument` for a URL that is not a file URL.
    public func save(to url: URL, mode: SaveMode = .automatic) throws {
        try save(to: url.localFilePath(), mode: mode)
    }

    /// Writes the document with its changes to `path` as ``save(to:mode:)-(String,_)`` does (atomically,
    /// encryption kept), but goes on as it was: on the file it was read from, with its
    /// changes still unsaved there. `path` must not be the file the document was read from.
    public func saveCopy(to path: String, mode: SaveMode = .automatic) throws {
        try require(.save)
        try writeCopy(to: path, as: DocumentSaving.self) { document, state, temporaryPath in
            try document.write(to: temporaryPath, incremental: Self.incremental(mode, state: state))
        }
    }

    /// Writes a copy of the document to `path` with `write` (given the engine document as
    /// `Conformance`, its state and the temporary file's path), atomically, leaving the
    /// document as it was; `invalidArgument` when `path` is the file the document was read from.
    func writeCopy<Conformance>(to path: String, as type: Conformance.Type, _ write: (Conformance, Engine, String) throws -> Void) throws {
        try withEngineState { state in
            if case .file(let source) = state.source,
               URL(fileURLWithPath: source).standardizedFileURL.path == URL(fileURLWithPath: path).standardizedFileURL.path {
                throw RendererError(.invalidArgument, "a copy cannot be saved over the file the document was read from; save it instead")
            }
            let document = try state.document(as: type)
            try AtomicFile.replace(path) { temporaryPath in try write(document, state, temporaryPath) }
        }
    }

    /// Writes a copy to the local file `url` names, as ``saveCopy(to:mode:)-(String,_)`` does;
    /// `invalidArgument` for a URL that is not a file URL.
    public func saveCopy(to url: URL, mode: SaveMode = .automatic) throws {
        try saveCopy(to: url.localFilePath(), mode: mode)
    }

    /// Saves the document with its changes into `fileSystem` at `path`, as
    /// ``save(to:mode:)-(String,_)`` does on disk: written under a temporary entry that is renamed over
    /// `path` once complete (``FileSystem/replaceAtomically(_:_:)``), so `path` is at every
    /// moment the old or the complete new document, and on a secure file system nothing of
    /// the document is written anywhere else. The document then continues as the saved
    /// entry, read from `fileSystem`.
    public func save(to path: String, in fileSystem: any FileSystem, mode: SaveMode = .automatic) throws {
        try require(.save)
        let password = self.password
        try withEngineState { state in
            let incremental = try Self.incremental(mode, state: state)
            let document = try state.document(as: DocumentSaving.self)
            try fileSystem.replaceAtomically(path) { handle in try document.write(into: handle, incremental: incremental) }
            let saved = DocumentSource.stream(try fileSystem.documentStream(path))
            state.document = try state.renderer.openDocument(saved, password: password, limits: limits)
            state.source = saved
            state.hasUnsavedChanges = false
        }
    }

    /// Writes `data`, the document's file as a change made to its bytes rather than through
    /// the engine left it (a signature's incremental update), atomically at `path` in
    /// `fileSystem`, and reads the document from there again, as a save does. The document
    /// must have no unsaved changes, which `data` would leave out.
    package func replaceFile(with data: Data, at path: String, in fileSystem: any FileSystem) throws {
        let password = self.password
        try withEngineState { state in
            guard !state.hasUnsavedChanges else {
                throw RendererError(.invalidArgument, "the document has unsaved changes, which the new file would lose", rendererID: state.renderer.id)
            }
            try fileSystem.replaceAtomically(path) { handle in try data.withUnsafeBytes { try handle.write($0) } }
            let saved: DocumentSource = fileSystem is LocalFileSystem ? .file(path) : .stream(try fileSystem.documentStream(path))
            state.document = try state.renderer.openDocument(saved, password: password, limits: limits)
            state.source = saved
        }
    }

    /// Writes the document with its changes into `fileSystem` at `path` as
    /// ``save(to:in:mode:)`` does, but goes on as it was, as ``saveCopy(to:mode:)-(String,_)`` does.
    public func saveCopy(to path: String, in fileSystem: any FileSystem, mode: SaveMode = .automatic) throws {
        try require(.save)
        try withEngineState { state in
            let incremental = try Self.incremental(mode, state: state)
            let document = try state.document(as: DocumentSaving.self)
            try fileSystem.replaceAtomically(path) { handle in try document.write(into: handle, incremental: incremental) }
        }
    }

    /// The document with its changes as the PDF file saving would write, in memory only:
    /// nothing is written to disk (the engine runs in this process, or hands the bytes over
    /// its pipe when isolated).
    public func pdfData(mode: SaveMode = .automatic) throws -> Data {
        try require(.save)
        return try withEngineState { state in
            let sink = MemorySink()
            try state.document(as: DocumentSaving.self).write(into: sink, incremental: try Self.incremental(mode, state: state))
            return sink.bytes
        }
    }

    /// Whether `mode` saves incrementally for the engine in `state`, or why it cannot.
    private static func incremental(_ mode: SaveMode, state: Engine) throws -> Bool {
        switch mode {
        case .automatic:
            return try state.document(as: DocumentSaving.self).canSaveIncrementally
        case .incremental:
            guard try state.document(as: DocumentSaving.self).canSaveIncrementally else {
                throw RendererError(
                    .invalidArgument, "\(state.source.displayName) cannot be saved incrementally (the engine had to repair it); save with the rewrite mode",
                    rendererID: state.renderer.id)
            }
            return true
        case .rewrite:
            guard state.renderer.annotationSupport.canRewrite else {
                throw RendererError(.unsupported, "\(state.renderer.engineName) cannot rewrite a whole file here; save incrementally", rendererID: state.renderer.id)
            }
            return false
        }
    }
}

/// A write handle that keeps what is written in memory.
private final class MemorySink: FileWriteHandle {
    private(set) var bytes = Data()

    func write(_ bytes: UnsafeRawBufferPointer) throws { self.bytes.append(contentsOf: bytes) }
    func close() throws {}
}
