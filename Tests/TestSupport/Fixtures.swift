import Foundation
import GhostscriptRenderer
import MuPDFRenderer
import PopplerRenderer
import RendererProvider

/// Where the committed fixtures and sample live, and the registry the tests open them with.
public enum Fixtures {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The path of a fixture in Tests/Fixtures.
    public static func path(_ name: String) -> String {
        root.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    public static let samplePath = root.appendingPathComponent("Samples/sample.pdf").path

    /// Every backend: MuPDF first, then Poppler, and Ghostscript, which `auto` never chooses.
    public static let registry = RendererRegistry(engines)
    private static let engines: [any Renderer] = [MuPDFRenderer(), PopplerRenderer(), GhostscriptRenderer()]

    /// What the conformance suites open with: ``registry``'s engines, then MuPDF and Poppler
    /// in engine processes (``IsolatedBackends``), which `auto` never chooses.
    public static let conformanceRegistry = RendererRegistry(engines + IsolatedBackends.renderers(isolating: engines.filter { backendIDs.contains($0.id) }))

    /// The full engines, in this process.
    public static let backendIDs = ["mupdf", "poppler"]

    /// What every conformance test runs against: the full engines in this process and in
    /// engine processes.
    public static let conformanceBackendIDs = backendIDs + isolatedBackendIDs

    /// The full engines in engine processes (``IsolatedBackends``).
    public static let isolatedBackendIDs = IsolatedBackends.ids

    /// The engine a backend id names: `isolated-mupdf` is MuPDF, in an engine process.
    public static func engineID(_ backend: String) -> String {
        backend.hasPrefix(IsolatedBackends.prefix) ? String(backend.dropFirst(IsolatedBackends.prefix.count)) : backend
    }

    /// Every engine, for the conformance tests of what all of them do: opening (file,
    /// memory, stream, password), page facts, drawing and text.
    public static let readingBackendIDs = engines.map(\.id)

    /// Opens a fixture with one backend (any of ``conformanceRegistry``'s).
    public static func open(_ name: String, backend: String, password: String? = nil) throws -> Document {
        try conformanceRegistry.open(.file(path(name)), password: password, renderer: .id(backend))
    }

    /// The fixture PDFs that open without a password, with their page counts.
    public static let openable: [(name: String, pages: Int)] = [
        ("text.pdf", 3), ("mixed-sizes.pdf", 5), ("rotated.pdf", 4), ("cropbox.pdf", 1),
        ("colors.pdf", 1), ("metadata.pdf", 1), ("labels.pdf", 9), ("restricted.pdf", 1),
        ("search.pdf", 3), ("outline.pdf", 4), ("outline-cycle.pdf", 1), ("outline-deep.pdf", 1),
        ("boxes.pdf", 4), ("metadata-xmp.pdf", 1), ("signed.pdf", 1), ("signed-then-changed.pdf", 1), ("field-loop.pdf", 1), ("forms.pdf", 1),
    ]

    /// Every openable fixture's path, and the sample's.
    public static let allDocuments = openable.map { path($0.name) } + [samplePath]

    /// Text with every run of whitespace made one space, and none at the ends.
    public static func normalizedWhitespace(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}
