import Foundation
import RendererProvider

/// One way a document differs from its reference.
public struct SnapshotDifference: Sendable, CustomStringConvertible {
    /// What differs.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The two were made by another engine, engine version or resolution: not compared.
        case provenance
        /// A page of the reference has no counterpart.
        case pageRemoved = "page-removed"
        /// A page has no counterpart in the reference.
        case pageAdded = "page-added"
        /// A page's pixels differ beyond the tolerance (or its size does).
        case pixels
        /// A page's text differs.
        case text
        /// An aspect of the document's structure differs (``SnapshotDifference/section``).
        case structure
    }

    /// What differs.
    public var kind: Kind
    /// The 0-based index of the page in the reference, if a page of it is concerned.
    public var referencePage: Int?
    /// The 0-based index of the page in the compared document, if a page of it is concerned.
    public var page: Int?
    /// For ``Kind/structure``: the aspect that differs, as ``DocumentStructure/sections()``
    /// names it ("metadata", "fonts", ...); nil when a structure could not be read apart.
    public var section: String?
    /// What differs, in words: which page, how much, the changed lines.
    public var message: String
    /// For ``Kind/pixels``: the pixel comparison, with its picture of where the page differs.
    public var pixels: ImageDifference?
    /// For ``Kind/pixels``: the reference's and the compared page's drawings.
    public var expectedImage, actualImage: Bitmap?
    /// For ``Kind/text`` and ``Kind/structure``: the changed lines.
    public var lines: LineDiff?

    /// ``message``.
    public var description: String { message }
}

/// A document compared with a reference: pages matched, even when one was inserted or
/// removed, then each matched page's pixels and text and the document's structure.
///
/// Pages are matched by their text when both sides have text: the longest order-keeping
/// matching in which paired pages share at least half of their words (``SequenceAlignment``),
/// so that one inserted page does not make every later page differ. Without text on both
/// sides, pages are matched the same way by their look (their gray levels over a 32 x 32 grid), and without
/// images either, by position. Pages left alone on both sides between the same matched pages
/// are then paired in order (a page whose text was rewritten is a changed page, not one
/// removed and one added).
public struct SnapshotComparison: Sendable {
    /// How the reference was made.
    public var reference: DocumentSnapshot.Provenance
    /// How the compared document was read.
    public var compared: DocumentSnapshot.Provenance
    /// The tolerance pixels were compared with.
    public var tolerance: PixelTolerance
    /// The page matching: each step pairs a reference page with a compared one, or leaves
    /// one alone.
    public var pages: [SequenceAlignment.Step]
    /// Every difference found, in page order, the structure's last.
    public var differences: [SnapshotDifference]

    /// Whether the document matches its reference.
    public var passed: Bool { differences.isEmpty }

    /// Compares `compared` with `reference` under `tolerance`. When the reference holds
    /// pages drawn by another engine, engine version or resolution than `compared`'s, the one
    /// difference is that (``SnapshotDifference/Kind/provenance``): their pixels would differ
    /// for that alone. Messages call the two `names` (by default "the reference" and
    /// nothing: "page 2 is not in the reference"; a diff of two files names both). Throws what
    /// reading either side throws.
    public init(
        reference: some SnapshotSource, compared: some SnapshotSource, tolerance: PixelTolerance = PixelTolerance(),
        names: (reference: String, compared: String)? = nil
    ) throws {
        self.reference = reference.provenance
        self.compared = compared.provenance
        self.tolerance = tolerance
        differences = []
        if let mismatch = self.reference.mismatch(with: self.compared), reference.provenance.aspects.contains(.pages) {
            pages = []
            differences = [SnapshotDifference(
                kind: .provenance, message: "the reference was \(mismatch): record the reference again with this engine to compare pixels")]
            return
        }
        let texts = (try Self.texts(reference), try Self.texts(compared))
        pages = try Self.matchPages(reference, compared, texts: texts)
        let pairs = pages.compactMap { step -> (Int, Int)? in
            if case .both(let r, let c) = step { return (r, c) }
            return nil
        }
        let pairDifferences = try Self.comparePairs(pairs, reference, compared, texts: texts, tolerance: tolerance, names: names)
        var nextPair = 0
        for step in pages {
            switch step {
            case .onlyFirst(let r):
                let message = names.map { "page \(r + 1) of \($0.reference) is not in \($0.compared)" } ?? "page \(r + 1) of the reference is missing"
                differences.append(SnapshotDifference(kind: .pageRemoved, referencePage: r, message: message))
            case .onlySecond(let c):
                let message = names.map { "page \(c + 1) of \($0.compared) is not in \($0.reference)" } ?? "page \(c + 1) is not in the reference"
                differences.append(SnapshotDifference(kind: .pageAdded, page: c, message: message))
            case .both:
                differences += pairDifferences[nextPair]
                nextPair += 1
            }
        }
        if let expected = try reference.structure(), let actual = try compared.structure(), expected != actual {
            let decoder = JSONDecoder()
            if let a = try? decoder.decode(DocumentStructure.self, from: Data(expected.utf8)),
                let b = try? decoder.decode(DocumentStructure.self, from: Data(actual.utf8)) {
                for ((section, old), (_, new)) in zip(a.sections(), b.sections()) where old != new {
                    let lines = LineDiff(from: old, to: new)
                    differences.append(SnapshotDifference(
                        kind: .structure, section: section, message: "the \(section) differ\(section.hasSuffix("s") ? "" : "s")\n" + lines.summary(), lines: lines))
                }
            } else {
                let lines = LineDiff(from: expected, to: actual)
                differences.append(SnapshotDifference(kind: .structure, message: "the structure differs\n" + lines.summary(), lines: lines))
            }
        }
    }

    /// Each side's page texts, or nil when it has none.
    static func texts(_ side: some SnapshotSource) throws -> [String]? {
        var texts: [String] = []
        for index in 0..<side.pageCount {
            guard let text = try side.pageText(index) else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// The differences of each matched pair of pages (reference page, compared page), in
    /// order: pixels, then text. The pairs are compared on as many threads as there are
    /// processors, so that two documents read as the comparison goes are drawn at once.
    static func comparePairs(
        _ pairs: [(Int, Int)], _ reference: some SnapshotSource, _ compared: some SnapshotSource, texts: ([String]?, [String]?),
        tolerance: PixelTolerance, names: (reference: String, compared: String)?
    ) throws -> [[SnapshotDifference]] {
        let results = Locked([[SnapshotDifference]](repeating: [], count: pairs.count))
        let failure = Locked<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: pairs.count) { index in
            guard failure.withLock({ $0 == nil }) else { return }
            let (r, c) = pairs[index]
            let name = r == c ? "page \(c + 1)"
                : names.map { "page \(c + 1) of \($0.compared) (page \(r + 1) of \($0.reference))" } ?? "page \(c + 1) (page \(r + 1) of the reference)"
            var found: [SnapshotDifference] = []
            do {
                if let expected = try reference.pageImage(r), let actual = try compared.pageImage(c) {
                    let pixels = ImageDifference(expected: expected, actual: actual, tolerance: tolerance)
                    if !pixels.passed {
                        found.append(SnapshotDifference(
                            kind: .pixels, referencePage: r, page: c,
                            message: "\(name): " + describe(pixels, tolerance, reference: names?.reference ?? "the reference"), pixels: pixels,
                            expectedImage: expected, actualImage: actual))
                    }
                }
            } catch {
                failure.withLock { $0 = $0 ?? error }
                return
            }
            if let expected = texts.0?[r], let actual = texts.1?[c], expected != actual {
                let lines = LineDiff(from: expected, to: actual)
                found.append(SnapshotDifference(
                    kind: .text, referencePage: r, page: c,
                    message: "\(name): the text differs\n" + (lines.isEmpty ? "(in spaces at line ends)" : lines.summary()), lines: lines))
            }
            results.withLock { $0[index] = found }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }
    }

    /// How many pixels differ, in words.
    static func describe(_ pixels: ImageDifference, _ tolerance: PixelTolerance, reference: String) -> String {
        guard pixels.expectedSize == pixels.actualSize else {
            return "drawn \(pixels.actualSize.width) x \(pixels.actualSize.height) pixels, \(reference) \(pixels.expectedSize.width) x \(pixels.expectedSize.height)"
        }
        let percent = (pixels.differingShare * 100).formatted(.number.precision(.significantDigits(1...3)))
        let allowed = (tolerance.differingShare * 100).formatted(.number.precision(.significantDigits(1...3)))
        return "\(percent)% of its pixels (\(pixels.differingPixels) of \(pixels.pixelCount)) differ by more than \(tolerance.channel) in a channel"
            + (tolerance.ignoresSubpixelShifts ? " even allowing a subpixel shift" : "") + "; \(allowed)% may"
    }

    /// The page matching described on the type.
    static func matchPages(
        _ reference: some SnapshotSource, _ compared: some SnapshotSource, texts: ([String]?, [String]?)
    ) throws -> [SequenceAlignment.Step] {
        let (n, m) = (reference.pageCount, compared.pageCount)
        let steps: [SequenceAlignment.Step]
        if let first = texts.0, let second = texts.1 {
            let words = (first.map { Set($0.split(whereSeparator: \.isWhitespace)) }, second.map { Set($0.split(whereSeparator: \.isWhitespace)) })
            steps = SequenceAlignment.align(n, m) { r, c in
                let (a, b) = (words.0[r], words.1[c])
                if a.isEmpty || b.isEmpty { return a.isEmpty && b.isEmpty }
                return 2 * a.intersection(b).count >= a.union(b).count
            }
        } else if let first = try signatures(reference), let second = try signatures(compared) {
            steps = SequenceAlignment.align(n, m) { r, c in first[r].resembles(second[c]) }
        } else {
            steps = (0..<max(n, m)).map { i in i < n && i < m ? .both(first: i, second: i) : i < n ? .onlyFirst(i) : .onlySecond(i) }
        }
        return pairRewrittenPages(steps)
    }

    /// Each page's `PageSignature`, or nil when the side has no images.
    static func signatures(_ side: some SnapshotSource) throws -> [PageSignature]? {
        var result: [PageSignature] = []
        for index in 0..<side.pageCount {
            guard let image = try side.pageImage(index) else { return nil }
            result.append(PageSignature(image))
        }
        return result
    }

    /// `steps` with each run of lone pages between two matched ones paired in order: the
    /// first lone reference page with the first lone compared page, and on.
    static func pairRewrittenPages(_ steps: [SequenceAlignment.Step]) -> [SequenceAlignment.Step] {
        var result: [SequenceAlignment.Step] = []
        var (removed, added): ([Int], [Int]) = ([], [])
        func flush() {
            for i in 0..<max(removed.count, added.count) {
                if i < removed.count, i < added.count {
                    result.append(.both(first: removed[i], second: added[i]))
                } else if i < removed.count {
                    result.append(.onlyFirst(removed[i]))
                } else {
                    result.append(.onlySecond(added[i]))
                }
            }
            (removed, added) = ([], [])
        }
        for step in steps {
            switch step {
            case .onlyFirst(let r): removed.append(r)
            case .onlySecond(let c): added.append(c)
            case .both: flush(); result.append(step)
            }
        }
        flush()
        return result
    }
}

/// A page's look in brief, for matching pages without text: its size and its gray levels
/// averaged over a 32 x 32 grid.
struct PageSignature {
    static let side = 32
    var width, height: Int
    var cells: [Int]

    init(_ bitmap: Bitmap) {
        let rgb = bitmap.opaqueRGB()
        (width, height) = (rgb.width, rgb.height)
        let side = Self.side
        var sums = [Int](repeating: 0, count: side * side), counts = [Int](repeating: 0, count: side * side)
        for y in 0..<rgb.height {
            let row = y * side / max(1, rgb.height)
            for x in 0..<rgb.width {
                let i = y * rgb.stride + x * 3
                let cell = row * side + x * side / max(1, rgb.width)
                sums[cell] += (Int(rgb.bytes[i]) + Int(rgb.bytes[i + 1]) + Int(rgb.bytes[i + 2])) / 3
                counts[cell] += 1
            }
        }
        cells = zip(sums, counts).map { $1 == 0 ? 255 : $0 / $1 }
    }

    /// Whether two pages look alike: the same size, and of the cells inked in either (darker
    /// than 250 on average), at most half differing by more than 8 gray levels. A changed word
    /// or a recoloured shape leaves most inked cells alike; another page's text does not.
    func resembles(_ other: PageSignature) -> Bool {
        guard width == other.width, height == other.height else { return false }
        var inked = 0, differing = 0
        for (a, b) in zip(cells, other.cells) {
            if a < 250 || b < 250 { inked += 1 }
            if abs(a - b) > 8 { differing += 1 }
        }
        return 2 * differing <= inked
    }
}
