import Foundation
import ProcessSpawning
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// One running LibreOffice and the bridge that drives it (``OfficeBridge``), both children of
/// this process; it answers one conversion at a time and is ended whole (both killed) when
/// it fails, hangs or is stopped.
final class OfficeInstance {
    private let office: ChildProcess
    private let bridge: ChildProcess
    private let requests: Int32
    private let answers: Int32
    private var pending = Data()
    /// The sockets LibreOffice made in /tmp for this instance, as the bridge found them:
    /// removed when it ends, as a killed LibreOffice leaves them.
    private(set) var sockets: [String] = []
    private var ended = false

    /// Starts LibreOffice headless on a pipe of its own with the profile in `profile`, and the
    /// bridge, and waits (at most `startLimit`) until the bridge says it is connected.
    init(soffice: String, python: String, profile: URL, startLimit: Duration) throws {
        let user = profile.appendingPathComponent("user")
        try FileManager.default.createDirectory(at: user, withIntermediateDirectories: true)
        let settings = user.appendingPathComponent("registrymodifications.xcu")
        if !FileManager.default.fileExists(atPath: settings.path) { try Data(OfficeBridge.settings.utf8).write(to: settings) }
        let script = profile.appendingPathComponent("bridge.py")
        try Data(OfficeBridge.script.utf8).write(to: script)
        let pipe = "hostapp-office-\(getpid())-\(UUID().uuidString.prefix(8))"
        let installation = profile.absoluteURL.absoluteString
        office = try ChildProcess(soffice, [
            "--headless", "--invisible", "--nologo", "--norestore", "--nodefault", "--nolockcheck", "--nofirststartwizard",
            "-env:UserInstallation=\(installation)", "--accept=pipe,name=\(pipe);urp;",
        ], ownProcessGroup: true)
        let input = try ProcessPipe(), output = try ProcessPipe()
        do {
            bridge = try ChildProcess(
                python, [script.path, pipe, String(Double(startLimit.components.seconds)), installation], standardInput: .descriptor(input.reading),
                standardOutput: .descriptor(output.writing))
        } catch {
            office.signalGroup(SIGKILL)
            office.wait()
            throw RendererError(.unsupported, "LibreOffice's Python bridge (Debian's python3-uno) cannot be started: \(error)")
        }
        input.closeReading()
        output.closeWriting()
        requests = input.takeWriting()
        answers = output.takeReading()
        guard let ready = try? answer(within: startLimit), ready["ready"] as? Bool == true else {
            end()
            throw RendererError(.engineFailure, "LibreOffice did not start (is it installed, with python3-uno?)")
        }
        // Only LibreOffice's own pipes, right in /tmp, are ever removed.
        sockets = (ready["sockets"] as? [String] ?? []).filter { $0.hasPrefix("/tmp/OSL_PIPE_") && !$0.dropFirst(5).contains("/") }
    }

    deinit { end() }

    /// The instance ended before a file was handed to it: the file is untouched, and another
    /// instance may take it.
    struct Gone: Error {}

    /// Converts `input` to the PDF `output`; throws ``Gone`` when the bridge has ended before
    /// it takes the file, `limitExceeded` when it takes longer than `limit` and
    /// `engineCrashed` when LibreOffice or the bridge ends meanwhile (the instance cannot be
    /// used again after any of these), `damaged` when LibreOffice cannot read it.
    func convert(_ input: String, to output: String, within limit: Duration, name: String) throws {
        let request = try JSONSerialization.data(withJSONObject: ["input": input, "output": output]) + Data("\n".utf8)
        guard ProcessPipe.write(Array(request), to: requests) else { throw Gone() }
        let reply = try answer(within: limit)
        if reply["ok"] as? Bool == true { return }
        // The bridge answers for a LibreOffice that went away mid-conversion too.
        guard office.isRunning else { throw RendererError(.engineCrashed, "LibreOffice ended while converting \(name)") }
        throw RendererError(.damaged, "LibreOffice cannot convert \(name) to PDF")
    }

    /// Whether both processes still run (LibreOffice's launcher waits for `soffice.bin`).
    var isRunning: Bool { office.isRunning && bridge.isRunning }

    /// LibreOffice's process group.
    var officeGroup: pid_t { office.pid }

    /// Ends both processes, and every process LibreOffice's launcher started (`soffice` is
    /// a script that starts `oosplash`, which starts `soffice.bin`): its whole process group;
    /// then removes the sockets it left in /tmp.
    func end() {
        // Once: the converter ends an instance before it lets it go, and its pipes' numbers
        // may by then be another file's.
        guard !ended else { return }
        ended = true
        close(requests)
        close(answers)
        bridge.signal(SIGKILL)
        bridge.wait()
        office.signalGroup(SIGKILL)
        office.wait()
        for socket in sockets { unlink(socket) }
    }

    /// The bridge's next line, as JSON; `limitExceeded` after `limit`, `engineCrashed` at
    /// the end of its output.
    private func answer(within limit: Duration) throws -> [String: Any] {
        let deadline = ContinuousClock.now + limit
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<newline]
                pending = Data(pending[(newline + 1)...])
                return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any] ?? [:]
            }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw RendererError(.limitExceeded, "LibreOffice took longer than \(limit.components.seconds) s") }
            var entry = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(answers, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw RendererError(.engineCrashed, "LibreOffice ended while converting") }
            pending.append(contentsOf: buffer[..<count])
        }
    }
}
