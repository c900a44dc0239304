import Foundation
import RendererOptimize
import RendererProvider
import RendererStamps
import RendererServerHTTP

/// One served file: its engine document pools (one per renderer) and the session its
/// annotation edits and settings go through, both kept in step with the file on disk
/// (readers' bookmarks and places are ``ReaderStates``'s).
/// Where the engines run (in this process, or isolated in child processes) is the
/// registry's renderers' affair: a served file works the same either way.
///
/// The file's version (size, modification time and inode) is read at each request: when it
/// changed (the session saved an edit, or someone replaced the file), the pools are closed so
/// the next request reads the new file, and page images get new ETags.
///
/// An encrypted file the server's own password does not open is read with the password a
/// reader unlocked it with (``admit(password:)``); once it has one, every request must carry
/// a reader's key for it, so that no reader without the password reads what the engines
/// opened with another's. Of the passwords readers unlocked it with, the one that permits
/// least is the one it is read with: no reader is granted, through what others opened,
/// more than their own password permits.
///
/// Edits take turns: one at a time per served file (in arrival order), each holding the
/// file's ``FileWriteLock`` against other processes from before it checks the file's version
/// until its save is renamed into place, and answered only once saved. The session is opened
/// once however many requests ask at the same moment, and neither a change of the file
/// seen by a reader nor the library closing the document closes it under an edit.
actor ServedDocument {
    let id: String
    let path: String
    let context: ServerContext
    private var pools: [String: DocumentPool] = [:]
    private var version: String
    private var session: ReadingSession?
    private var infos: (version: String, pages: [PageInfo])?
    /// Single pages' facts read before every page's were, for the file version they are of.
    private var pageFacts: (version: String, pages: [Int: PageInfo?]) = ("", [:])
    /// The password a reader unlocked the file with, which its documents are opened with;
    /// forgotten when the file changes (the next reader with a key gives it again).
    private var readerPassword: String?
    /// What each password a reader unlocked the file with permits, for the file's version.
    private var grants: [String: DocumentPermissions] = [:]
    /// The session being opened, and the file version it was asked for: every request that
    /// asks for the same version meanwhile waits for it.
    private var opening: (version: String, task: Task<ReadingSession, any Error>)?
    /// Whether an edit (or a close) holds the document, and who waits for it, in order.
    private var writing = false
    private var writers: [CheckedContinuation<Void, Never>] = []
    /// The text recognition the file's documents read scans with (the server's, or the one
    /// a reader asked for), with the store they share; made again when the file changes.
    var textRecognition: TextRecognition?
    /// The reading of every page a reader asked for, for the file's version.
    var recognitionJob: RecognitionJob?

    init(id: String, path: String, context: ServerContext) {
        self.id = id
        self.path = path
        self.context = context
        version = Self.readVersion(path)
        textRecognition = Self.sharing(context.configuration.textRecognition)
    }

    /// `recognition` with a new store, which the file's documents share.
    static func sharing(_ recognition: TextRecognition?) -> TextRecognition? {
        guard var recognition else { return nil }
        recognition.store = RecognizedPages()
        return recognition
    }

    /// The pools open now.
    var openPools: [DocumentPool] { Array(pools.values) }

    /// The file's current version, for ETags; closes what was opened from an older one. While
    /// an edit runs, the file is the edit's to change: the version it had stands until the
    /// edit ends.
    func currentVersion() -> String {
        guard !writing else { return version }
        let now = Self.readVersion(path)
        if now != version { fileChanged(to: now) }
        return version
    }

    /// Waits for the document's turn to be changed (or closed), in arrival order.
    private func takeTurn() async {
        guard writing else {
            writing = true
            return
        }
        await withCheckedContinuation { writers.append($0) }
    }

    /// Hands the turn to the next waiting writer, if any.
    private func endTurn() {
        if writers.isEmpty { writing = false } else { writers.removeFirst().resume() }
    }

    /// Lets a request in: `password` is the one its reader's key stands for, if it carries a
    /// key. Once a reader's password opens the file, a request without a key is refused with
    /// `passwordRequired` (the engines' documents are open with that password); the first
    /// key after a change of the file gives the password again. A key whose password permits
    /// less than the one the documents are open with (the user's, after the owner's) has them
    /// opened again with it: what the PDF permits on the shared documents is what every
    /// admitted reader's own password permits.
    func admit(password: String?) async throws {
        _ = currentVersion()
        guard let password else {
            if readerPassword != nil { throw RendererError(.passwordRequired, "\(id) is encrypted: unlock it with its password") }
            return
        }
        while let current = readerPassword, current != password {
            let (mine, shared) = (try await permissions(of: password), try await permissions(of: current))
            guard readerPassword == current else { continue }  // another reader's came meanwhile
            if shared.isSubset(of: mine) { return }
            break
        }
        guard readerPassword != password else { return }
        readerPassword = password
        // What was opened without it (it failed, or the file was not encrypted then) goes;
        // a session an edit holds is the edit's until it ends (it saves and closes the pools).
        closePools()
        if !writing { closeSession() }
    }

    /// The reader's password the file's documents are opened with, if a reader gave one.
    var openingPassword: String? { readerPassword }

    /// Whether the file opens without a reader's password (unencrypted, or opened by the
    /// server's own): throws what opening it throws otherwise, `passwordRequired` when a
    /// password is needed.
    func opensWithoutReaderPassword() async throws -> Bool {
        do {
            try await check(password: nil)
            return true
        } catch let error as RendererError where error.code == .passwordRequired || error.code == .wrongPassword {
            return false
        }
    }

    /// Opens the file with `password` (nil: the server's) to check it, and drops what it
    /// opened; returns what the password permits. Throws `wrongPassword` when the password
    /// does not open it.
    @discardableResult
    func check(password: String?) async throws -> DocumentPermissions {
        let (context, path) = (self.context, self.path)
        return try await naming(path, as: id) {
            try await context.threads.run { _ in
                try context.openDocument(path, renderer: context.configuration.renderer, password: password).info().permissions
            }
        }
    }

    /// What `password` permits on the file as it is, read once per version.
    private func permissions(of password: String) async throws -> DocumentPermissions {
        let version = currentVersion()
        if let known = grants[password] { return known }
        let granted = try await check(password: password)
        if version == self.version { grants[password] = granted }
        return granted
    }

    /// The pool of `rendererID` for the file as it is now.
    func pool(_ rendererID: String) -> DocumentPool {
        _ = currentVersion()
        if let pool = pools[rendererID] { return pool }
        let (context, path, password) = (self.context, self.path, readerPassword)
        let pool = DocumentPool(
            path: path, documentID: id, rendererID: rendererID, capacity: context.configuration.documentsPerFile, threads: context.threads,
            textRecognition: textRecognition, metrics: context.metrics
        ) { try context.openDocument(path, renderer: .id(rendererID), password: password) }
        pools[rendererID] = pool
        return pool
    }

    /// The reader's session, opened on first use with the server's default engine: once
    /// however many requests ask at the same moment, and never one opened from a version of
    /// the file that has changed since it was asked for (an edit must see every earlier save).
    func readingSession() async throws -> ReadingSession {
        _ = currentVersion()
        while true {
            if let session { return session }
            let wanted = version
            let task: Task<ReadingSession, any Error>
            if let opening, opening.version == wanted {
                task = opening.task
            } else {
                task = Task { try await openSession() }
                opening = (wanted, task)
            }
            let opened: ReadingSession
            do {
                opened = try await task.value
            } catch {
                if opening?.task == task { opening = nil }
                throw error
            }
            if opening?.task == task { opening = nil }
            if version == wanted {
                if session == nil { session = opened }
                if session === opened { return opened }
            }
            // Opened from a version that is gone, or beaten by another: not this one.
            opened.close()
        }
    }

    /// A new session on the file, for the annotation edits and the settings.
    private func openSession() async throws -> ReadingSession {
        let file = FileState(internalPath: path, displayPath: id, isReadOnly: !context.configuration.allowsEditing)
        let session = ReadingSession(file: file, registry: context.registry(for: path), configuration: sessionConfiguration(password: readerPassword))
        try await naming(path, as: id) { try await context.threads.run { _ in try session.open() } }
        return session
    }

    /// The server's session configuration, opening the file with `password` (nil: the server's).
    private func sessionConfiguration(password: String?) -> SessionConfiguration {
        var configuration = SessionConfiguration(
            password: password ?? context.configuration.password, renderer: context.configuration.renderer,
            limits: context.configuration.documentLimits, settings: context.configuration.settings)
        configuration.textRecognition = textRecognition
        return configuration
    }

    /// Writes a copy of the file with `protection` (nil: unencrypted) to `output`, through a
    /// session of its own opened with `password`, the request's own (nil: the server's):
    /// what the PDF permits is what that password permits, whichever password the shared
    /// session was opened with. The settings apply as to any save elsewhere (`saveTo`).
    func writeCopy(to output: String, protection: PasswordProtection?, password: String?) async throws {
        try await withCopySession(password: password) { session in try session.save(to: output, protection: protection) }
    }

    /// Writes the document with `stamps` laid onto its pages (`RendererStamps`) to `output`,
    /// opened with `password`; the served file stays as it is. Needs the settings and the
    /// PDF's permissions to allow changes (`editing`) and saving elsewhere (`saveTo`).
    func writeStampedCopy(to output: String, stamps: [TextStamp], password: String?) async throws {
        try await withCopySession(password: password) { session in
            try session.check(.editing)
            try session.addTextStamps(stamps)
            try session.save(to: output)
        }
    }

    /// Runs `body` on an engine thread with a read-only session of the file of its own,
    /// opened with `password` (nil: the server's) and closed after; errors name the document
    /// by its id, not its path.
    private func withCopySession(password: String?, _ body: @escaping @Sendable (ReadingSession) throws -> Void) async throws {
        let file = FileState(internalPath: path, displayPath: id, isReadOnly: true)
        let session = ReadingSession(file: file, registry: context.registry(for: path), configuration: sessionConfiguration(password: password))
        try await naming(path, as: id) {
            try await context.threads.run { _ in
                try session.open()
                defer { session.close() }
                try body(session)
            }
        }
    }

    /// Writes the file as stored, optimised for fast web view by `PDFOptimizer` with `options`,
    /// to `output`, opened with `password`. Needs the `saveTo` setting.
    func writeOptimizedCopy(to output: String, password: String?, options: PDFOptimizer.Options) async throws {
        try await require(.saveTo)
        let input = path
        try await naming(input, as: id) {
            try await context.threads.run { _ in _ = try PDFOptimizer.optimize(input, to: output, password: password, options: options) }
        }
    }

    /// The renderer requests use when they name none: the configured one, or for `auto` the
    /// one that opened the reader's session.
    func defaultRendererID() async throws -> String {
        if case .id(let id) = context.configuration.renderer { return id }
        return try await readingSession().renderer.id
    }

    /// The annotations of one page, or of every page.
    func annotations(pageAt page: Int?) async throws -> [Annotation] {
        try await withSession { session in try page.map { try session.annotations(pageAt: $0) } ?? session.annotations() }
    }

    /// Which of `features` may be used now: those the server's settings permit and whose
    /// PDF permission the password the file was opened with grants.
    func permitted(_ features: [SessionFeature]) async throws -> Set<SessionFeature> {
        try await withSession { session in Set(features.filter { (try? session.check($0)) != nil }) }
    }

    /// Throws `notPermitted` (403) unless `feature` may be used now.
    func require(_ feature: SessionFeature) async throws {
        try await withSession { try $0.check(feature) }
    }

    /// The number of pages, without reading every page's facts (a reader's place is checked
    /// against it before the first page is drawn).
    func pageCount() async throws -> Int {
        if let cached = infos, cached.version == currentVersion() { return cached.pages.count }
        return try await onDefaultEngine { document in document.pageCount }
    }

    /// One page's facts: from every page's when they were read, else that page's alone, read
    /// once per file version (a first page is drawn before the rest are measured, and each
    /// image asks for its page's size). Nil for a page past the end.
    func pageInfo(pageAt index: Int) async throws -> PageInfo? {
        let version = currentVersion()
        if let cached = infos, cached.version == version { return cached.pages.indices.contains(index) ? cached.pages[index] : nil }
        if pageFacts.version == version, let known = pageFacts.pages[index] { return known }
        let info = try await onDefaultEngine { document in index < document.pageCount ? try document.pageInfo(pageAt: index) : nil }
        if pageFacts.version != version { pageFacts = (version, [:]) }
        pageFacts.pages[index] = info
        return info
    }

    /// Page sizes, rotations and labels, read once per file version.
    func pageInfos() async throws -> [PageInfo] {
        let version = currentVersion()
        if let cached = infos, cached.version == version { return cached.pages }
        let pages = try await onDefaultEngine { document in try document.pageInfos() }
        infos = (version, pages)
        return pages
    }

    /// Runs `body` with a document of the default engine's pool, within the time limit.
    private func onDefaultEngine<T: Sendable>(_ body: @escaping @Sendable (Document) throws -> T) async throws -> T {
        try await pool(try await defaultRendererID()).run(timeLimit: context.configuration.timeLimit) { document, _ in try body(document) }
    }

    /// Runs an edit through the session on an engine thread, then saves the file in place
    /// (atomically, as sessions save) and moves on to the new version; returns once the file
    /// holds the edit. Edits take turns, and each holds the file's ``FileWriteLock``: another
    /// process's edit made before the lock was taken is read first (the session reopens on
    /// the new version), never overwritten. Servers sharing a PostgreSQL database also take
    /// turns through it (``SaveCoordination``), and refuse an edit when the file they see is
    /// older than the one the last save through any of them left. With `saving` false, `body`
    /// saves the file itself (signing writes its own incremental update).
    func edit<T: Sendable>(saving: Bool = true, _ body: @escaping @Sendable (ReadingSession) throws -> T) async throws -> T {
        guard context.configuration.allowsEditing else {
            throw APIError.forbidden("this server was started read-only; annotations cannot be changed")
        }
        await takeTurn()
        defer { endTurn() }
        guard let saves = context.collaboration?.saveCoordination else {
            return try await editHoldingLock(saving: saving, after: nil, body).result
        }
        return try await naming(path, as: id) {
            try await saves.saving(document: id, timeout: .seconds(FileWriteLock.defaultTimeout)) { recorded in
                try await self.editHoldingLock(saving: saving, after: recorded, body)
            }
        }
    }

    /// An edit's turn once it is this server's: under the file's lock, it reads the file's
    /// version, refuses it when it is older than `recorded` (the version the last save through
    /// a server sharing the database left), and returns the result with the version the edit
    /// leaves.
    private func editHoldingLock<T: Sendable>(
        saving: Bool, after recorded: String?, _ body: @escaping @Sendable (ReadingSession) throws -> T
    ) async throws -> (result: T, version: String) {
        let (path, id) = (self.path, self.id)
        let lock = try await naming(path, as: id) {
            try await context.threads.run { _ in try FileWriteLock.acquire(path, displayName: id) }
        }
        defer { lock?.release() }
        // The version as it is under the lock: another process's save before it reopens the session.
        let now = try await Self.version(of: path, seenAfter: recorded, naming: id)
        if now != version { fileChanged(to: now) }
        let session = try await readingSession()
        defer {
            version = Self.readVersion(path)
            closePools()
        }
        let result = try await naming(path, as: id) {
            try await context.threads.run { _ in
                let result = try body(session)
                if saving { try session.save() }
                return result
            }
        }
        return (result, Self.readVersion(path))
    }

    /// The version of the file at `path` as this machine sees it, once it is not older than
    /// `recorded`: a file system shared over a network may show a save made on another
    /// machine a moment late, so it is read again for up to a second; a version newer than
    /// `recorded` is a change made outside the servers, and is taken, as is a file that is gone
    /// (the edit then finds none). Throws `conflict` when the file still looks older, so that
    /// nothing is saved over what it does not show yet.
    private static func version(of path: String, seenAfter recorded: String?, naming id: String) async throws -> String {
        var now = readVersion(path)
        guard let recorded, FileVersion.of(path) != nil else { return now }
        for _ in 0..<20 where now != recorded && !FileVersion.isNewer(now, than: recorded) {
            try await Task.sleep(for: .milliseconds(50))
            now = readVersion(path)
        }
        guard now == recorded || FileVersion.isNewer(now, than: recorded) else {
            throw RendererError(.conflict, "\(id) was saved through another server, and that save is not visible here yet; try again")
        }
        return now
    }

    /// Runs `body` with the session on an engine thread, without saving. A session closed
    /// under it (the file changed meanwhile) is opened again once, on the new file.
    func withSession<T: Sendable>(_ body: @escaping @Sendable (ReadingSession) throws -> T) async throws -> T {
        do {
            let session = try await readingSession()
            return try await naming(path, as: id) { try await context.threads.run { _ in try body(session) } }
        } catch let error as RendererError where error.code == .sessionClosed {
            let session = try await readingSession()
            return try await naming(path, as: id) { try await context.threads.run { _ in try body(session) } }
        }
    }

    /// Closes the pools and the session, and stops a reading of its scans; waits for an edit
    /// in flight to end first, and returns when the pools' documents are given back.
    func close() async {
        await takeTurn()
        defer { endTurn() }
        recognitionJob?.cancel()
        for pool in takePools() { await pool.close() }
        closeSession()
    }

    private func fileChanged(to now: String) {
        version = now
        readerPassword = nil
        grants = [:]
        closePools()
        closeSession()
        recognitionJob?.cancel()
        recognitionJob = nil
        textRecognition = Self.sharing(context.configuration.textRecognition)
    }

    /// Closes the session.
    private func closeSession() {
        if let session {
            session.close()
            self.session = nil
        }
    }

    /// Closes the pools without waiting for it (each closes once its leased documents are
    /// given back); what comes next opens new ones.
    private func closePools() {
        for pool in takePools() { Task { await pool.close() } }
    }

    /// The pools, taken out of use.
    private func takePools() -> [DocumentPool] {
        defer { pools.removeAll() }
        return Array(pools.values)
    }

    private static func readVersion(_ path: String) -> String {
        FileVersion.of(path) ?? "missing"
    }
}
