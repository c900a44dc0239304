#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Saving through the session: over its file (then copied back where the file state asks),
/// or to another file, each announced to the host, which may veto it or change the mode.
extension ReadingSession {
    /// Saves the document over the session's file, atomically, as ``Document/save(to:mode:)-(String,_)``
    /// does; then, when the file state requires it, copies it back to the original.
    ///
    /// Throws `notPermitted` when the settings do not permit saving or the file state is
    /// read-only (save to another file instead), and the save's own error (after a
    /// `saveFailed` event; the file is then as it was). A copy-back that fails or finds the
    /// original changed by someone else does not throw: the result says so, and the saved
    /// file stays at the internal path.
    @discardableResult
    public func save(mode: SaveMode = .automatic) throws -> SaveResult {
        try withPermitted([.save]) { document, state in
            guard !file.isReadOnly else {
                throw RendererError(.notPermitted, "\(file.displayPath) is read-only; save it to another file (setting save)")
            }
            let path = file.internalPath
            guard let mode = try decide(path: path, mode: mode, state: state) else { return .cancelled }
            let files = configuration.fileSystem
            try write(path: path, in: state) {
                if files is LocalFileSystem { try document.save(to: path, mode: mode) } else { try document.save(to: path, in: files, mode: mode) }
            }
            guard file.requiresCopyBack, let original = file.originalPath else { return .saved(path: path) }
            if let error = copyBack(to: original, state: state) { return .savedWithoutCopyBack(path: path, error: error) }
            return .saved(path: path)
        }
    }

    /// Writes the document with its changes to `path`, atomically, and goes on with the
    /// session's own file as it was (its changes still unsaved there). Needs the
    /// ``SessionFeature/saveTo`` setting; a read-only file state allows it. `path` must not
    /// be the session's own file: use ``save(mode:)``.
    @discardableResult
    public func save(to path: String, mode: SaveMode = .automatic) throws -> SaveResult {
        try withPermitted([.saveTo]) { document, state in
            let files = configuration.fileSystem
            let target = files is LocalFileSystem ? URL(fileURLWithPath: path).standardizedFileURL.path : path
            guard let mode = try decide(path: target, mode: mode, state: state) else { return .cancelled }
            try write(path: target, in: state) {
                if files is LocalFileSystem { try document.saveCopy(to: target, mode: mode) } else { try document.saveCopy(to: target, in: files, mode: mode) }
            }
            return .saved(path: target)
        }
    }

    /// Writes the document with its changes to `path`, a whole new file with `protection`'s
    /// passwords and permissions or (nil) unencrypted, as ``Document/saveCopy(to:protection:)``
    /// does, and goes on with the session's own file as it was. Needs the
    /// ``SessionFeature/saveTo`` setting and, for an encrypted document, its owner password.
    /// The host is told as of any save (`willSave` with mode `rewrite`, then `saved` or
    /// `saveFailed`) and may cancel it.
    @discardableResult
    public func save(to path: String, protection: PasswordProtection?) throws -> SaveResult {
        try withPermitted([.saveTo]) { document, state in
            guard configuration.fileSystem is LocalFileSystem else {
                throw RendererError(.unsupported, "a protected copy is written to a local file only, not into the session's file system")
            }
            let target = URL(fileURLWithPath: path).standardizedFileURL.path
            guard try decide(path: target, mode: .rewrite, state: state) != nil else { return .cancelled }
            try write(path: target, in: state) { try document.saveCopy(to: target, protection: protection) }
            return .saved(path: target)
        }
    }

    /// Writes the bytes `make` returns, the document's file changed outside the engine (as
    /// signing changes it), over the session's file, with a save's events, vetoes and
    /// copy-back, and reads the document from it again; then tells `signed` of the field
    /// `make` names, as the new file holds it. Needs `features` and ``SessionFeature/save``, a
    /// file state that is not read-only, and no unsaved changes (`invalidArgument`: save
    /// them first). Undo and redo are cleared: the file now holds everything done before.
    package func replaceFile(needing features: [SessionFeature], _ make: (Document) throws -> (data: Data, signedField: String)) throws -> SaveResult {
        try withPermitted(features + [.save]) { document, state in
            guard !file.isReadOnly else { throw RendererError(.notPermitted, "\(file.displayPath) is read-only, so it cannot be signed in place") }
            guard !document.hasUnsavedChanges else {
                throw RendererError(.invalidArgument, "the document has unsaved changes; save them before signing, since the file is what is signed")
            }
            let (data, signedField) = try make(document)
            let path = file.internalPath
            guard try decide(path: path, mode: .incremental, state: state) != nil else { return .cancelled }
            try write(path: path, in: state) { try document.replaceFile(with: data, at: path, in: configuration.fileSystem) }
            state.undoStack.removeAll()
            state.redoStack.removeAll()
            if let field = try document.signatureFields().first(where: { $0.name == signedField }) {
                emit(.signed(field), in: state)
            }
            guard file.requiresCopyBack, let original = file.originalPath else { return .saved(path: path) }
            if let error = copyBack(to: original, state: state) { return .savedWithoutCopyBack(path: path, error: error) }
            return .saved(path: path)
        }
    }

    /// Asks the delegate about a save: the mode to save in, or nil (after `saveCancelled`).
    private func decide(path: String, mode: SaveMode, state: State) throws -> SaveMode? {
        guard let chosen = state.delegate.map({ $0.session(self, willSaveTo: path, mode: mode) }) ?? mode else {
            emit(.saveCancelled, in: state)
            return nil
        }
        emit(.willSave(path: path, mode: chosen), in: state)
        return chosen
    }

    /// Runs the write, telling `saved` or `saveFailed`.
    private func write(path: String, in state: State, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as RendererError {
            emit(.saveFailed(error), in: state)
            throw error
        }
        emit(.saved(path: path), in: state)
    }

    /// Copies the saved internal file back to `original` unless someone else changed the
    /// original since the session stamped it; returns the error it reported, if any.
    private func copyBack(to original: String, state: State) -> RendererError? {
        let request = CopyBackRequest(internalPath: file.internalPath, originalPath: original, fileSystem: configuration.fileSystem)
        emit(.copyBackRequested(request), in: state)
        let failure: RendererError
        do {
            let now = try FileStamp(of: original, in: configuration.fileSystem)
            guard now == state.originalStamp else {
                failure = RendererError(
                    .conflict,
                    "\(original) changed since the session opened it, so it was not overwritten; the saved document is at \(file.internalPath)")
                emit(.copyBackFailed(failure), in: state)
                return failure
            }
            switch state.delegate?.session(self, copyBack: request) ?? request.copyAndAnswer() {
            case .done:
                state.originalStamp = try FileStamp(of: original, in: configuration.fileSystem)
                emit(.copiedBack(path: original), in: state)
                return nil
            case .failed(let reason):
                failure = RendererError(.ioFailure, "the copy back to \(original) failed (\(reason)); the saved document is at \(file.internalPath)")
            }
        } catch let error as RendererError {
            failure = RendererError(.ioFailure, "the copy back to \(original) failed (\(error.message)); the saved document is at \(file.internalPath)")
        } catch {
            failure = RendererError(.ioFailure, "the copy back to \(original) failed (\(error)); the saved document is at \(file.internalPath)")
        }
        emit(.copyBackFailed(failure), in: state)
        return failure
    }
}
