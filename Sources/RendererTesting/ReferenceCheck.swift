import Foundation
import RendererComparison
import RendererProvider

/// A PDF checked against its reference folder: what was found and what was written. The
/// Swift Testing form (``expectPDF(_:matchesReference:renderer:dpi:aspects:tolerance:recording:filePath:sourceLocation:)``)
/// turns it into issues; other test frameworks can call ``init(_:reference:renderer:dpi:aspects:tolerance:recording:registry:)`` and report it their way.
public struct ReferenceCheck: Sendable {
    /// What the check concluded.
    public enum Outcome: Sendable {
        /// The PDF matches its reference.
        case matched
        /// The reference was written (it was missing, or the mode records it); the check
        /// fails, so that a run that records never passes unnoticed.
        case recorded
        /// The PDF does not match; the comparison says how, and the artifacts folder holds
        /// the expected, actual and difference images of each differing page.
        case differs(SnapshotComparison)
        /// There is no reference and the mode records none.
        case missing
    }

    /// The reference folder.
    public var reference: URL
    /// Where the images of differing pages were written, when the PDF differs.
    public var artifacts: URL?
    /// What the check concluded.
    public var outcome: Outcome

    /// The environment variable naming the folder failed checks write their images into;
    /// without it, `RendererTesting` in the temporary folder.
    public static let artifactsVariable = "RENDERER_TESTING_ARTIFACTS"

    /// Checks `pdf` against the snapshot in `reference`: draws it with `renderer` at `dpi`,
    /// takes `aspects`, and compares under `tolerance`; records per `recording` (default:
    /// the run's, ``ReferenceRecording/current``). Throws what opening or reading the PDF
    /// throws, and when a reference cannot be read or written.
    public init(
        _ pdf: some PDFSource, reference: URL, renderer: String = TestingRenderers.defaultRenderer, dpi: Double = 72,
        aspects: DocumentSnapshot.Aspects = .all, tolerance: PixelTolerance = PixelTolerance(), recording: ReferenceRecording? = nil,
        registry: RendererRegistry = TestingRenderers.registry
    ) throws {
        self.reference = reference
        let mode = recording ?? .current
        let document = try pdf.document(renderer: renderer, registry: registry)
        let actual = try DocumentSnapshot(of: document, dpi: dpi, aspects: aspects)
        let stored: DocumentSnapshot
        do {
            stored = try DocumentSnapshot(contentsOf: reference)
        } catch let error as RendererError where error.code == .fileNotFound {
            if mode == .never {
                outcome = .missing
            } else {
                try actual.write(to: reference)
                outcome = .recorded
            }
            return
        }
        if mode == .all {
            try actual.write(to: reference)
            outcome = .recorded
            return
        }
        let comparison = try SnapshotComparison(reference: stored, compared: actual, tolerance: tolerance)
        if comparison.passed {
            outcome = .matched
        } else if mode == .failed {
            try actual.write(to: reference)
            outcome = .recorded
        } else {
            artifacts = try Self.writeArtifacts(comparison, for: reference)
            outcome = .differs(comparison)
        }
    }

    /// The reference folder of the check named `name` in the test file `filePath`:
    /// `__References__/<file name without .swift>/<name>` beside it.
    public static func folder(named name: String, filePath: String) -> URL {
        let file = URL(fileURLWithPath: filePath)
        return file.deletingLastPathComponent().appendingPathComponent("__References__")
            .appendingPathComponent(file.deletingPathExtension().lastPathComponent).appendingPathComponent(name)
    }

    /// Writes the expected, actual and difference images of each differing page into a
    /// folder named for `reference` under the artifacts folder, emptied first; returns it.
    private static func writeArtifacts(_ comparison: SnapshotComparison, for reference: URL) throws -> URL {
        let root = ProcessInfo.processInfo.environment[artifactsVariable].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("RendererTesting")
        let folder = root.appendingPathComponent(reference.deletingLastPathComponent().lastPathComponent).appendingPathComponent(reference.lastPathComponent)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for difference in comparison.differences {
            for (name, data) in try difference.attachments() {
                try data.write(to: folder.appendingPathComponent(name), options: .atomic)
            }
        }
        return folder
    }
}

/// A difference as files a person opens.
extension SnapshotDifference {
    /// The files that show this difference, by name: for pixels, the expected, actual and
    /// difference images (`page-002-expected.png` and so on, numbered as the compared page);
    /// for text and structure, the changed lines (`page-002-text.diff`, `metadata.diff`).
    public func attachments() throws -> [(name: String, data: Data)] {
        let stem = page.map { "page-" + String(format: "%03d", $0 + 1) } ?? "document"
        var files: [(String, Data)] = []
        if let expectedImage { files.append(("\(stem)-expected.png", try expectedImage.pngData())) }
        if let actualImage { files.append(("\(stem)-actual.png", try actualImage.pngData())) }
        if let image = pixels?.image { files.append(("\(stem)-difference.png", try image.pngData())) }
        if let lines {
            let name = kind == .structure ? (section ?? "structure").replacingOccurrences(of: " ", with: "-") + ".diff" : "\(stem)-text.diff"
            files.append((name, Data((lines.changes.joined(separator: "\n") + "\n").utf8)))
        }
        return files
    }
}
