import Foundation
import RendererProvider
import Synchronization

/// Office and OpenDocument files turned into PDF by LibreOffice: one instance, started on
/// the first conversion and kept warm for the next, converts them one at a time in the
/// order they come. It runs headless with a profile folder of its own, runs no macro, updates
/// no link and fetches nothing from the network (its proxy is a closed loopback port). It is
/// isolated as an engine is: a conversion that takes longer than the time limit, or during
/// which LibreOffice crashes, fails that file alone; the instance is ended and the next
/// conversion starts another.
///
/// Needs LibreOffice (Debian's `libreoffice-core-nogui` with `libreoffice-writer-nogui`,
/// `-calc-nogui` and `-impress-nogui`) and its Python bridge (`python3-uno`).
public final class OfficeConverter: Sendable {
    /// Where LibreOffice and its bridge are, and the limits a conversion runs under.
    public struct Configuration: Sendable {
        /// LibreOffice's program.
        public var soffice: String
        /// The Python that has LibreOffice's `uno` module (Debian's, not a virtual environment's).
        public var python: String
        /// How long a conversion may take.
        public var timeLimit: Duration
        /// How long LibreOffice may take to start.
        public var startLimit: Duration

        /// LibreOffice on the PATH, Debian's Python, 60 seconds a file and 60 to start.
        public init(soffice: String = "soffice", python: String = "/usr/bin/python3", timeLimit: Duration = .seconds(60), startLimit: Duration = .seconds(60)) {
            self.soffice = soffice
            self.python = python
            self.timeLimit = timeLimit
            self.startLimit = startLimit
        }
    }

    /// The file name extensions of the documents converted: word processing, spreadsheets and
    /// presentations, in Microsoft Office's formats, OpenDocument's (flat XML too) and RTF.
    public static let documentExtensions: Set<String> = ["doc", "docx", "odt", "fodt", "rtf", "xls", "xlsx", "ods", "fods", "ppt", "pptx", "odp", "fodp"]

    /// The media types of those documents, as a client labels an upload of one.
    public static let mediaTypes: Set<String> = [
        "application/msword", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/vnd.oasis.opendocument.text",
        "application/rtf", "application/vnd.ms-excel", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.oasis.opendocument.spreadsheet", "application/vnd.ms-powerpoint",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation", "application/vnd.oasis.opendocument.presentation",
    ]

    /// The limits and programs it runs with.
    public let configuration: Configuration
    /// The profile folder LibreOffice keeps its settings in, removed when the converter goes.
    private let profile: URL
    /// The running instance, nil until the first conversion and after one failed; held for
    /// the whole of a conversion, so that conversions go one at a time.
    private let instance = Mutex<OfficeInstance?>(nil)

    /// A converter with `configuration`; LibreOffice starts on the first conversion.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-office-\(UUID().uuidString)")
    }

    deinit {
        instance.withLock { $0?.end() }
        try? FileManager.default.removeItem(at: profile)
    }

    /// The running LibreOffice's process group, nil when none runs (for the tests that stop
    /// or end it).
    var officeGroup: pid_t? { instance.withLock { $0?.isRunning == true ? $0?.officeGroup : nil } }

    /// The sockets the running LibreOffice made in /tmp (for the tests that check they go
    /// with it).
    var officeSockets: [String] { instance.withLock { $0?.sockets ?? [] } }

    /// Whether `path` names a document this converter takes, by its extension.
    public static func takes(_ path: String) -> Bool {
        documentExtensions.contains(URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    /// Converts the document at `input` into the PDF `output`, written whole or not at all
    /// (an existing `output` stays as it was until the new one takes its place). Throws
    /// `unsupportedFormat` for a file whose extension is not one of ``documentExtensions``,
    /// `fileNotFound`, `damaged` when LibreOffice cannot read it, `limitExceeded` past the time
    /// limit (`timeLimit`, else the configuration's) and `engineCrashed` when LibreOffice ends
    /// meanwhile; no message names a folder.
    public func convert(_ input: String, to output: String, timeLimit: Duration? = nil) throws {
        let name = URL(fileURLWithPath: input).lastPathComponent
        guard Self.takes(input) else {
            throw RendererError(.unsupportedFormat, "\(name) is not a document LibreOffice converts here (\(Self.documentExtensions.sorted().joined(separator: ", ")))")
        }
        guard FileManager.default.isReadableFile(atPath: input) else { throw RendererError(.fileNotFound, "\(name) cannot be read") }
        let place = ConvertedOutput(output)
        defer { place.discard() }
        try instance.withLock { instance in
            // An instance that ended while it waited (found so only when handed the file) is
            // replaced, once: the file is not this failure's cause.
            for attempt in 1...2 {
                if instance?.isRunning != true {
                    instance?.end()
                    instance = nil
                    instance = try OfficeInstance(soffice: configuration.soffice, python: configuration.python, profile: profile, startLimit: configuration.startLimit)
                }
                do {
                    try instance!.convert(URL(fileURLWithPath: input).path, to: place.partial.path, within: timeLimit ?? configuration.timeLimit, name: name)
                    return
                } catch is OfficeInstance.Gone {
                    instance?.end()
                    instance = nil
                    if attempt == 2 { throw RendererError(.engineCrashed, "LibreOffice ended before \(name) was converted") }
                } catch let error as RendererError where error.code != .damaged {
                    // Hung or gone: this instance serves no other file.
                    instance?.end()
                    instance = nil
                    throw error
                }
            }
        }
        guard FileManager.default.fileExists(atPath: place.partial.path) else { throw RendererError(.damaged, "LibreOffice wrote no PDF of \(name)") }
        try place.putInPlace(name: name)
    }
}
