import Foundation
import RendererProvider

/// What a document looks like and holds, as one renderer saw it: each page drawn, each page's
/// text, and its ``DocumentStructure`` as JSON; kept in memory or in a folder, and compared
/// with another (``SnapshotComparison``). A test's reference is a snapshot in a folder.
///
/// A folder holds `snapshot.json` (the ``Provenance``), `page-001.png` and on for each page
/// drawn (PNG, RGB), `text.txt` (each page's text followed by a form feed and a newline, as
/// `pdftotext` separates pages) and `structure.json`.
public struct DocumentSnapshot: Sendable, SnapshotSource {
    /// How a snapshot was made: which engine drew it, at what resolution, and what it holds.
    public struct Provenance: Hashable, Sendable, Codable {
        /// The renderer's id, such as "mupdf".
        public var renderer: String
        /// The engine's name and version, such as "MuPDF" and "1.21.1".
        public var engine, engineVersion: String
        /// The resolution the pages were drawn at.
        public var dpi: Double
        /// The document's page count.
        public var pageCount: Int
        /// What the snapshot holds.
        public var aspects: Aspects

        /// The provenance of a snapshot of `pageCount` pages drawn by `renderer` at `dpi`.
        public init(renderer: any Renderer, dpi: Double, pageCount: Int, aspects: Aspects) {
            self.renderer = renderer.id
            engine = renderer.engineName
            engineVersion = renderer.engineVersion
            self.dpi = dpi
            self.pageCount = pageCount
            self.aspects = aspects
        }

        /// Where two snapshots were made differently, in words (nil when alike): pixels drawn
        /// by another engine version or at another resolution are not comparable.
        public func mismatch(with other: Provenance) -> String? {
            var reasons: [String] = []
            if renderer != other.renderer || engineVersion != other.engineVersion {
                reasons.append("made with \(engine) \(engineVersion) (\(renderer)), compared with \(other.engine) \(other.engineVersion) (\(other.renderer))")
            }
            if dpi != other.dpi { reasons.append("drawn at \(dpi.formatted()) dpi, compared at \(other.dpi.formatted()) dpi") }
            return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
        }
    }

    /// What a snapshot holds.
    public struct Aspects: OptionSet, Hashable, Sendable, Codable {
        /// The aspects' bits.
        public let rawValue: Int
        /// Aspects of the given bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Each page drawn.
        public static let pages = Aspects(rawValue: 1)
        /// Each page's text.
        public static let text = Aspects(rawValue: 2)
        /// The document's ``DocumentStructure``.
        public static let structure = Aspects(rawValue: 4)
        /// All three.
        public static let all: Aspects = [.pages, .text, .structure]
    }

    /// How it was made.
    public var provenance: Provenance
    /// Each page drawn, when ``Aspects/pages`` was taken.
    public var pageImages: [Bitmap]?
    /// Each page's text, when ``Aspects/text`` was taken.
    public var pageTexts: [String]?
    /// The structure's JSON text (``DocumentStructure/jsonText()``), when ``Aspects/structure`` was taken.
    public var structureJSON: String?

    /// A snapshot made as `provenance` says, holding what is given.
    public init(provenance: Provenance, pageImages: [Bitmap]? = nil, pageTexts: [String]? = nil, structureJSON: String? = nil) {
        self.provenance = provenance
        self.pageImages = pageImages
        self.pageTexts = pageTexts
        self.structureJSON = structureJSON
    }

    /// A snapshot of `document`: its `aspects`, the pages drawn at `dpi` with their
    /// annotations. Throws what the document throws.
    public init(of document: Document, dpi: Double = 72, aspects: Aspects = .all) throws {
        let live = LiveSnapshotSource(document: document, dpi: dpi, aspects: aspects)
        provenance = live.provenance
        pageImages = try aspects.contains(.pages) ? (0..<document.pageCount).map { try live.pageImage($0)! } : nil
        pageTexts = try aspects.contains(.text) ? (0..<document.pageCount).map { try live.pageText($0)! } : nil
        structureJSON = try live.structure()
    }

    /// The snapshot stored in `folder`. Throws `fileNotFound` when the folder holds no
    /// `snapshot.json`, `damaged` when a file it names is missing or unreadable.
    public init(contentsOf folder: URL) throws {
        let provenanceFile = folder.appendingPathComponent(Self.provenanceFile)
        guard let data = try? Data(contentsOf: provenanceFile) else {
            throw RendererError(.fileNotFound, "there is no snapshot in \(folder.path)")
        }
        do {
            provenance = try JSONDecoder().decode(Provenance.self, from: data)
        } catch {
            throw RendererError(.damaged, "\(provenanceFile.path) is not a snapshot's description: \(error)")
        }
        func read(_ name: String) throws -> Data {
            do { return try Data(contentsOf: folder.appendingPathComponent(name)) } catch {
                throw RendererError(.damaged, "the snapshot in \(folder.path) lacks \(name)")
            }
        }
        let count = provenance.pageCount
        pageImages = try provenance.aspects.contains(.pages) ? (0..<count).map { try Bitmap(pngData: read(Self.pageFile($0, of: count))) } : nil
        if provenance.aspects.contains(.text) {
            let texts = String(decoding: try read(Self.textFile), as: UTF8.self).components(separatedBy: Self.pageEnd).dropLast()
            guard texts.count == count else { throw RendererError(.damaged, "\(Self.textFile) in \(folder.path) holds \(texts.count) pages, not \(count)") }
            pageTexts = Array(texts)
        }
        structureJSON = try provenance.aspects.contains(.structure) ? String(decoding: read(Self.structureFile), as: UTF8.self) : nil
    }

    /// Writes the snapshot into `folder` (made if missing), each file replaced whole, and
    /// removes the page images of a snapshot stored there before that this one lacks.
    public func write(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let existing = Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        var written: Set<String> = []
        func put(_ data: Data, _ name: String) throws {
            try AtomicFile.write(data, to: folder.appendingPathComponent(name).path)
            written.insert(name)
        }
        let count = provenance.pageCount
        for (index, image) in (pageImages ?? []).enumerated() { try put(try image.pngData(), Self.pageFile(index, of: count)) }
        if let pageTexts { try put(Data(pageTexts.map { $0 + Self.pageEnd }.joined().utf8), Self.textFile) }
        if let structureJSON { try put(Data(structureJSON.utf8), Self.structureFile) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try put(try encoder.encode(provenance) + Data("\n".utf8), Self.provenanceFile)
        for stale in existing.subtracting(written) where stale.hasPrefix("page-") && stale.hasSuffix(".png") || [Self.textFile, Self.structureFile].contains(stale) {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(stale))
        }
    }

    /// The name of page `index`'s image in a snapshot of `count` pages: `page-` and the
    /// 1-based number, zero-padded to at least three digits so that names sort by page.
    public static func pageFile(_ index: Int, of count: Int) -> String {
        let number = String(index + 1)
        let width = max(3, String(count).count)
        return "page-" + String(repeating: "0", count: max(0, width - number.count)) + number + ".png"
    }

    static let provenanceFile = "snapshot.json"
    static let textFile = "text.txt"
    static let structureFile = "structure.json"
    /// What follows each page's text in `text.txt`.
    static let pageEnd = "\u{0C}\n"

    // MARK: SnapshotSource

    /// The page count it was made of.
    public var pageCount: Int { provenance.pageCount }
    /// Page `index` as drawn, when pages were taken.
    public func pageImage(_ index: Int) throws -> Bitmap? { pageImages?[index] }
    /// Page `index`'s text, when text was taken.
    public func pageText(_ index: Int) throws -> String? { pageTexts?[index] }
    /// ``structureJSON``.
    public func structure() throws -> String? { structureJSON }
}
