import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// The folder readers' uploads are kept in (``UploadConfiguration``): it takes a request's
/// body into a hidden file of its own (never served), and gives a file that proved to be a
/// document its upload name. Every byte on disk counts against the folder's budget as it
/// arrives: uploads being received and uploads kept together stay within
/// ``UploadConfiguration/totalBytes``, the oldest kept uploads removed to make room, and a
/// byte no removal makes room for refuses its upload (503, retry later).
///
/// Hidden files left by a server that was killed while receiving are removed when the store
/// is made.
actor UploadStore {
    /// A body received into the folder, not yet kept or discarded.
    struct Received: Sendable {
        /// The hidden file holding it.
        var path: String
        /// Its bytes, counted against the budget until it is kept or discarded.
        var bytes: Int
    }

    /// The folder's real path.
    nonisolated let folder: String
    nonisolated let configuration: UploadConfiguration
    /// The uploads' names and sizes, the first kept first (those found at start by their times).
    private var kept: [(name: String, bytes: Int)]
    /// The bytes of the bodies being received and of those received and not yet kept.
    private var receivingBytes = 0

    /// The store of `configuration`'s folder, created when missing.
    init(_ configuration: UploadConfiguration) throws {
        try FileManager.default.createDirectory(atPath: configuration.folder, withIntermediateDirectories: true)
        guard let real = realpath(configuration.folder, nil) else {
            throw RendererError(.fileNotFound, "the uploads' folder \(configuration.folder) cannot be read")
        }
        folder = String(cString: real)
        free(real)
        self.configuration = configuration
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix(Self.receivingPrefix) { unlink(folder + "/" + name) }
        let folder = self.folder
        kept = names.filter(DocumentCatalog.isUploadName).map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            return (name, attributes?[.modificationDate] as? Date ?? .distantPast, attributes?[.size] as? Int ?? 0)
        }.sorted { $0.1 < $1.1 }.map { ($0.0, $0.2) }
    }

    private static let receivingPrefix = ".receiving-"

    /// Writes `body` into a new hidden file of the folder, readable by the server's user
    /// only, counting each part against the budget before it is written. Past
    /// ``UploadConfiguration/maximumBytes`` (413), past the budget (503), or when the body
    /// fails, removes the file, gives its bytes back and throws.
    nonisolated func receive(_ body: RequestBody) async throws -> Received {
        let path = folder + "/" + Self.receivingPrefix + Secrets.digest(of: [Secrets.random()], bytes: 16)
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RendererError(.ioFailure, "cannot create a file in the uploads' folder") }
        var count = 0
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                guard count + buffer.readableBytes <= configuration.maximumBytes else { throw APIError.tooLarge(configuration.maximumBytes) }
                try await reserve(buffer.readableBytes)
                count += buffer.readableBytes
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            guard count > 0 else { throw APIError.badRequest("the upload is empty") }
        } catch {
            unlink(path)
            await release(count)
            throw error
        }
        return Received(path: path, bytes: count)
    }

    /// A new hidden path in the folder, for a file made from a received one (the PDF of an
    /// uploaded picture) before it takes the received file's place.
    nonisolated func scratchPath() -> String {
        folder + "/" + Self.receivingPrefix + Secrets.digest(of: [Secrets.random()], bytes: 16)
    }

    /// Puts the file at `made` (a ``scratchPath()``) in the place of what `received` holds and
    /// counts its size instead; when it is the larger, the difference is counted against the
    /// budget first (503 when there is no room, `made` then removed).
    func replace(_ received: Received, with made: String) throws -> Received {
        let size = (try? FileManager.default.attributesOfItem(atPath: made))?[.size] as? Int ?? 0
        do {
            if size > received.bytes { try reserve(size - received.bytes) }
        } catch {
            unlink(made)
            throw error
        }
        guard rename(made, received.path) == 0 else {
            unlink(made)
            if size > received.bytes { release(size - received.bytes) }
            throw RendererError(.ioFailure, "cannot keep the upload")
        }
        if size < received.bytes { release(received.bytes - size) }
        return Received(path: received.path, bytes: size)
    }

    /// Counts `bytes` more being received, removing the oldest kept uploads while the folder
    /// would pass its budget; 503 when they alone do not make room.
    private func reserve(_ bytes: Int) throws {
        while keptBytes + receivingBytes + bytes > configuration.totalBytes, !kept.isEmpty {
            unlink(folder + "/" + kept.removeFirst().name)
        }
        guard keptBytes + receivingBytes + bytes <= configuration.totalBytes else {
            var error = APIError(.serviceUnavailable, code: "busy", "the uploads' space is taken by uploads being received; retry shortly")
            error.headers[.retryAfter] = "5"
            throw error
        }
        receivingBytes += bytes
    }

    /// Gives back `bytes` counted as being received.
    private func release(_ bytes: Int) {
        receivingBytes -= bytes
    }

    /// The bytes of the uploads kept.
    private var keptBytes: Int { kept.reduce(0) { $0 + $1.bytes } }

    /// Gives the received file a new upload name, counts it among the kept uploads, and
    /// returns its id.
    func keep(_ received: Received) throws -> String {
        release(received.bytes)
        let name = Secrets.digest(of: [Secrets.random()], bytes: 16) + ".pdf"
        guard rename(received.path, folder + "/" + name) == 0 else {
            unlink(received.path)
            throw RendererError(.ioFailure, "cannot keep the upload")
        }
        kept.append((name, received.bytes))
        return DocumentCatalog.uploadsRoot + "/" + name
    }

    /// Removes a received file that is not kept, and gives its bytes back.
    func discard(_ received: Received) {
        unlink(received.path)
        release(received.bytes)
    }
}
