import Foundation
import Hummingbird
import RendererLayers
import RendererProvider
import RendererServerHTTP

/// The folder readers' uploads are kept in (``UploadConfiguration``): it takes a request's
/// body into a hidden file of its own (never served), and gives a file that proved to be a
/// document its upload name. Every byte on disk counts against the folder's budget as it
/// arrives, in its ``UploadLedger``: uploads being received and uploads kept together stay
/// within ``UploadConfiguration/totalBytes``, the oldest kept uploads removed to make room,
/// and a byte no removal makes room for refuses its upload (503, retry later). Servers that
/// share the folder and a PostgreSQL database share the ledger, so the budget and the order
/// of removal hold for all of them together.
///
/// Hidden files left by a server that was killed while receiving are removed when the store
/// is made, once they have not grown for ``UploadLedger/receivingIdleLimit`` (a server
/// sharing the folder may be receiving the younger ones).
final class UploadStore: Sendable {
    /// A body received into the folder, not yet kept or discarded.
    struct Received: Sendable {
        /// The name it is counted by in the ledger while it is received.
        var id: String
        /// The hidden file holding it.
        var path: String
        /// Its bytes.
        var bytes: Int
        /// The bytes counted for it in the ledger (at least `bytes`) until it is kept or discarded.
        var reserved: Int
    }

    /// The folder's real path.
    let folder: String
    let configuration: UploadConfiguration
    private let ledger: any UploadLedger

    /// The store of `configuration`'s folder, created when missing, accounted in `shared`,
    /// or else in a ledger of its own made of the uploads the folder holds.
    init(_ configuration: UploadConfiguration, shared: (any UploadLedger)? = nil) throws {
        try FileManager.default.createDirectory(atPath: configuration.folder, withIntermediateDirectories: true)
        guard let real = realpath(configuration.folder, nil) else {
            throw RendererError(.fileNotFound, "the uploads' folder \(configuration.folder) cannot be read")
        }
        folder = String(cString: real)
        free(real)
        self.configuration = configuration
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let folder = self.folder
        let files = names.map { name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)
            return (name: name, modified: attributes?[.modificationDate] as? Date ?? .distantPast, bytes: attributes?[.size] as? Int ?? 0)
        }
        let idle = Date().addingTimeInterval(-FolderUploadLedger.receivingIdleLimit)
        for file in files where file.name.hasPrefix(Self.receivingPrefix) && file.modified < idle { unlink(folder + "/" + file.name) }
        ledger = shared ?? FolderUploadLedger(
            kept: files.filter { DocumentCatalog.isUploadName($0.name) }.sorted { $0.modified < $1.modified }.map { ($0.name, $0.bytes) })
    }

    private static let receivingPrefix = ".receiving-"

    /// Writes `body` (of `declared` bytes, when its request says) into a new hidden file of
    /// the folder, readable by the server's user only, counting each part against the budget
    /// before it is written (as the ledger counts: ``UploadLedger/reservationStep``). Past
    /// ``UploadConfiguration/maximumBytes`` (413), past the budget (503), or when the body
    /// fails, removes the file, gives its bytes back and throws.
    func receive(_ body: RequestBody, declared: Int?) async throws -> Received {
        // Declared past the limit: refused before a byte is counted (nothing is removed for it).
        if let declared, declared > configuration.maximumBytes { throw APIError.tooLarge(configuration.maximumBytes) }
        let id = Secrets.digest(of: [Secrets.random()], bytes: 16)
        let path = folder + "/" + Self.receivingPrefix + id
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600]),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw RendererError(.ioFailure, "cannot create a file in the uploads' folder") }
        var received = Received(id: id, path: path, bytes: 0, reserved: 0)
        do {
            defer { try? handle.close() }
            for try await buffer in body {
                let count = received.bytes + buffer.readableBytes
                guard count <= configuration.maximumBytes else { throw APIError.tooLarge(configuration.maximumBytes) }
                if count > received.reserved {
                    let wanted = count - received.reserved
                    let step = ledger.reservationStep.map { step in
                        max(wanted, min(declared ?? (received.reserved + step), configuration.maximumBytes) - received.reserved)
                    } ?? wanted
                    try await reserve(step, for: id)
                    received.reserved += step
                }
                received.bytes = count
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            guard received.bytes > 0 else { throw APIError.badRequest("the upload is empty") }
        } catch {
            await discard(received)
            throw error
        }
        return received
    }

    /// A new hidden path in the folder, for a file made from a received one (the PDF of an
    /// uploaded picture) before it takes the received file's place.
    func scratchPath() -> String {
        folder + "/" + Self.receivingPrefix + Secrets.digest(of: [Secrets.random()], bytes: 16)
    }

    /// Puts the file at `made` (a ``scratchPath()``) in the place of what `received` holds and
    /// counts its size instead; when it is the larger, the difference is counted against the
    /// budget first (503 when there is no room, `made` then removed).
    func replace(_ received: Received, with made: String) async throws -> Received {
        var replaced = received
        replaced.bytes = (try? FileManager.default.attributesOfItem(atPath: made))?[.size] as? Int ?? 0
        do {
            if replaced.bytes > received.reserved {
                try await reserve(replaced.bytes - received.reserved, for: received.id)
                replaced.reserved = replaced.bytes
            }
        } catch {
            unlink(made)
            throw error
        }
        guard rename(made, received.path) == 0 else {
            unlink(made)
            throw RendererError(.ioFailure, "cannot keep the upload")
        }
        return replaced
    }

    /// Counts `bytes` more for the upload `id` in the ledger, removing the files of the kept
    /// uploads it takes out to make room; 503 when taking out all of them does not.
    private func reserve(_ bytes: Int, for id: String) async throws {
        let (removed, admitted) = try await ledger.reserve(bytes, for: id, budget: configuration.totalBytes)
        for name in removed where DocumentCatalog.isUploadName(name) { unlink(folder + "/" + name) }
        guard admitted else {
            var error = APIError(.serviceUnavailable, code: "busy", "the uploads' space is taken by uploads being received; retry shortly")
            error.headers[.retryAfter] = "5"
            throw error
        }
    }

    /// Gives the received file a new upload name, counts it among the kept uploads, and
    /// returns its id.
    func keep(_ received: Received) async throws -> String {
        let name = Secrets.digest(of: [Secrets.random()], bytes: 16) + ".pdf"
        guard rename(received.path, folder + "/" + name) == 0 else {
            await discard(received)
            throw RendererError(.ioFailure, "cannot keep the upload")
        }
        do {
            try await ledger.keep(received.id, as: name, bytes: received.bytes)
        } catch {
            unlink(folder + "/" + name)
            await discard(received)
            throw error
        }
        return DocumentCatalog.uploadsRoot + "/" + name
    }

    /// Removes a received file that is not kept, and gives its bytes back.
    func discard(_ received: Received) async {
        unlink(received.path)
        try? await ledger.discard(received.id)
    }
}
