import Foundation
import RendererProvider

/// Runs documents through several renderers and compares what they make of them: pixels,
/// text, page sizes, links, annotations and outline, page by page against ``ComparisonThresholds``.
public struct DocumentComparer: Sendable {
    /// The resolution pages are rendered at for the pixel comparison.
    public var dpi: Double
    /// When a page passes.
    public var thresholds: ComparisonThresholds
    /// When cancelled, the comparison stops before its next page (and MuPDF within the page
    /// it draws) with `cancelled`.
    public var cancellation: Cancellation?
    /// Whether the compared renders draw the pages' annotations (the default). Without, the
    /// pixel figures are those of the pages' content alone, apart from the engines'
    /// different annotation appearances; the annotations themselves are still compared as
    /// records.
    public var drawsAnnotations = true

    /// A comparer that renders at `dpi`, judges pages against `thresholds`, and stops when
    /// `cancellation` is cancelled.
    public init(dpi: Double = 100, thresholds: ComparisonThresholds = ComparisonThresholds(), cancellation: Cancellation? = nil) {
        self.dpi = dpi
        self.thresholds = thresholds
        self.cancellation = cancellation
    }

    /// Compares as `compare(_:password:renderers:registry:pages:images:)` does, with the
    /// engine work on `threads`; cancelling the task stops it as `cancellation` does for
    /// the synchronous form (which this form's task cancellation replaces).
    public func compare(
        _ source: DocumentSource, password: String? = nil, renderers: [String], registry: RendererRegistry, pages: [Int]? = nil,
        on threads: EngineThreads = .shared
    ) async throws -> DocumentComparison {
        try await threads.run { cancellation in
            var comparer = self
            comparer.cancellation = cancellation
            return try comparer.compare(source, password: password, renderers: renderers, registry: registry, pages: pages)
        }
    }

    /// Opens `source` with each of `renderers` (ids, the first is the reference) and compares
    /// every other one with it on `pages` (default: all of the reference's pages). A renderer
    /// that cannot open the document makes its comparison fail with the reason; only when
    /// none can open it does this throw (the reference's error). `images` receives each
    /// page's renders and heat map as they are made.
    public func compare(
        _ source: DocumentSource, password: String? = nil, renderers: [String], registry: RendererRegistry,
        pages: [Int]? = nil, images: ((PageImages) throws -> Void)? = nil
    ) throws -> DocumentComparison {
        guard renderers.count >= 2, let referenceID = renderers.first else {
            throw RendererError(.invalidArgument, "a comparison needs at least two renderers")
        }
        var opened: [String: Result<Document, RendererError>] = [:]
        for id in renderers {
            do {
                opened[id] = .success(try registry.open(source, password: password, renderer: .id(id)))
            } catch let error as RendererError where error.code != .invalidArgument && error.code != .cancelled {
                opened[id] = .failure(error)
            }
        }
        let candidates: [CandidateComparison]
        var oddOnesOut: [OddOneOut] = []
        switch opened[referenceID]! {
        case .success(let reference):
            candidates = try renderers.dropFirst().map { id in
                switch opened[id]! {
                case .success(let candidate): return try compare(reference, candidate, pages: pages, images: images)
                case .failure(let error):
                    return Self.unopened(id, pageCount: reference.pageCount, because: "\(id) cannot open the document: \(error)")
                }
            }
        case .failure(let referenceError):
            let others = renderers.dropFirst().compactMap { id in try? opened[id]!.get() }
            guard !others.isEmpty else { throw referenceError }
            candidates = others.map { candidate in
                Self.unopened(candidate.renderer.id, pageCount: 0, candidatePageCount: candidate.pageCount,
                              because: "\(referenceID) cannot open the document, \(candidate.renderer.id) can: \(referenceError)")
            }
        }
        let documents = renderers.compactMap { try? opened[$0]!.get() }
        if documents.count == renderers.count {
            oddOnesOut = try self.oddOnesOut(documents, candidates: candidates)
        }
        return DocumentComparison(
            reference: referenceID, dpi: dpi, annotationsDrawn: drawsAnnotations, thresholds: thresholds, candidates: candidates,
            oddOnesOut: oddOnesOut, passed: candidates.allSatisfy(\.passed))
    }

    /// The pages on which one of `documents` (three or more; the reference first) differs
    /// from all the others while they agree with each other. A page every candidate passed
    /// against the reference has none; on another, the pairs not yet compared are compared
    /// as the candidates were.
    private func oddOnesOut(_ documents: [Document], candidates: [CandidateComparison]) throws -> [OddOneOut] {
        guard documents.count >= 3 else { return [] }
        var found: [OddOneOut] = []
        for (position, referencePage) in candidates[0].pages.enumerated() {
            let index = referencePage.pageIndex
            let againstReference = candidates.map { $0.pages[position].passed }
            guard againstReference.contains(false) else { continue }
            var agreement: [[Bool?]] = Array(repeating: Array(repeating: nil, count: documents.count), count: documents.count)
            for (candidate, passed) in againstReference.enumerated() {
                agreement[0][candidate + 1] = passed
            }
            func agree(_ i: Int, _ j: Int) throws -> Bool {
                let (low, high) = (min(i, j), max(i, j))
                if let known = agreement[low][high] { return known }
                let pages = (documents[low].pageCount, documents[high].pageCount)
                let passed = index < pages.0 && index < pages.1 ? try comparePage(index, documents[low], documents[high], images: nil).passed : false
                agreement[low][high] = passed
                return passed
            }
            for odd in documents.indices {
                let others = documents.indices.filter { $0 != odd }
                guard try others.allSatisfy({ try !agree(odd, $0) }) else { continue }
                let pairs = others.flatMap { i in others.filter { $0 > i }.map { (i, $0) } }
                if try pairs.allSatisfy({ try agree($0.0, $0.1) }) {
                    found.append(OddOneOut(pageIndex: index, renderer: documents[odd].renderer.id))
                    break
                }
            }
        }
        return found
    }

    private static func unopened(_ id: String, pageCount: Int, candidatePageCount: Int? = nil, because reason: String) -> CandidateComparison {
        CandidateComparison(
            renderer: id, referencePageCount: pageCount, candidatePageCount: candidatePageCount,
            differences: [reason], pages: [], passed: false)
    }

    /// Compares two open documents page by page: usually one file through two renderers,
    /// but any two documents, such as two versions of a file, compare the same way.
    public func compare(
        _ reference: Document, _ candidate: Document, pages: [Int]? = nil, images: ((PageImages) throws -> Void)? = nil
    ) throws -> CandidateComparison {
        let names = (reference.renderer.id, candidate.renderer.id)
        var differences: [String] = []
        if reference.pageCount != candidate.pageCount {
            differences.append("page count: \(names.0) has \(reference.pageCount), \(names.1) has \(candidate.pageCount)")
        }
        differences += outlineDifferences(reference, candidate)
        let indices = pages ?? Array(0..<reference.pageCount)
        var compared: [PageComparison] = []
        for index in indices {
            try cancellation?.check()
            if Task.isCancelled { throw RendererError(.cancelled, "the comparison was cancelled") }
            compared.append(try comparePage(index, reference, candidate, images: images))
        }
        return CandidateComparison(
            renderer: names.1, referencePageCount: reference.pageCount, candidatePageCount: candidate.pageCount,
            differences: differences, pages: compared, passed: differences.isEmpty && compared.allSatisfy(\.passed))
    }

    private func comparePage(_ index: Int, _ reference: Document, _ candidate: Document, images: ((PageImages) throws -> Void)?) throws -> PageComparison {
        let (a, b) = (reference.renderer.id, candidate.renderer.id)
        var result = PageComparison(pageIndex: index, failures: [], passed: false)
        guard index < candidate.pageCount else {
            result.failures = ["\(b) has no page \(index + 1)"]
            return result
        }
        let infoA = try? reference.pageInfo(pageAt: index), infoB = try? candidate.pageInfo(pageAt: index)
        result.referenceSize = infoA?.size
        result.candidateSize = infoB?.size
        if let sizeA = result.referenceSize, let sizeB = result.candidateSize,
            abs(sizeA.width - sizeB.width) > 0.5 || abs(sizeA.height - sizeB.height) > 0.5 {
            result.failures.append("size: \(a) \(Self.size(sizeA)), \(b) \(Self.size(sizeB))")
        }
        if let boxesA = infoA?.boxes, let boxesB = infoB?.boxes {
            result.failures += Self.boxDifferences(boxesA, boxesB, names: (a, b))
        }
        result.failures += try pixelFailures(index, reference, candidate, into: &result, images: images)
        if let textA = try? reference.text(pageAt: index), let textB = try? candidate.text(pageAt: index) {
            let agreement = TextAgreement.words(textA, textB)
            result.textAgreement = agreement
            if agreement < thresholds.minimumTextAgreement {
                result.failures.append("text: \(Self.percent(agreement)) of words agree (at least \(Self.percent(thresholds.minimumTextAgreement)) required)")
            }
        }
        if let linksA = try? reference.links(pageAt: index), let linksB = try? candidate.links(pageAt: index) {
            result.failures += Self.linkDifferences(linksA, linksB, names: (a, b))
        }
        if let annotationsA = try? reference.annotations(pageAt: index), let annotationsB = try? candidate.annotations(pageAt: index) {
            result.failures += Self.annotationDifferences(annotationsA, annotationsB, names: (a, b))
        }
        result.passed = result.failures.isEmpty
        return result
    }

    private func pixelFailures(
        _ index: Int, _ reference: Document, _ candidate: Document, into result: inout PageComparison, images: ((PageImages) throws -> Void)?
    ) throws -> [String] {
        let (a, b) = (reference.renderer.id, candidate.renderer.id)
        var options = RenderOptions(dpi: dpi)
        options.annotations = drawsAnnotations
        let renderA: Bitmap, renderB: Bitmap
        do { renderA = try reference.render(pageAt: index, options: options, cancellation: cancellation) } catch let error as RendererError where error.code != .cancelled {
            return ["\(a) cannot draw the page: \(error)"]
        }
        do { renderB = try candidate.render(pageAt: index, options: options, cancellation: cancellation) } catch let error as RendererError where error.code != .cancelled {
            return ["\(b) cannot draw the page: \(error)"]
        }
        guard renderA.width == renderB.width, renderA.height == renderB.height else { return [] }
        let metrics: PixelMetrics
        if let images {
            let measured = PixelMetrics.measureWithHeatMap(renderA, renderB, channelThreshold: thresholds.channel)
            metrics = measured.metrics
            try images(PageImages(candidate: b, pageIndex: index, referenceRender: renderA, candidateRender: renderB, heatMap: measured.heatMap))
        } else {
            metrics = PixelMetrics.measure(renderA, renderB, channelThreshold: thresholds.channel)
        }
        result.pixels = metrics
        var failures: [String] = []
        if metrics.referenceInkedShare > 0, metrics.candidateInkedShare == 0 {
            failures.append("\(b) drew nothing where \(a) inked \(Self.percent(metrics.referenceInkedShare)) of the page")
        } else if metrics.candidateInkedShare > 0, metrics.referenceInkedShare == 0 {
            failures.append("\(a) drew nothing where \(b) inked \(Self.percent(metrics.candidateInkedShare)) of the page")
        }
        if metrics.shiftedDifferingShare > thresholds.maximumShiftedDifferingShare {
            failures.append("pixels: \(Self.percent(metrics.shiftedDifferingShare)) differ even allowing a 1-pixel shift (at most \(Self.percent(thresholds.maximumShiftedDifferingShare)))")
        }
        if metrics.shiftedDifferingShare >= thresholds.minimumShiftedDifferingShareForInkLimit,
            metrics.shiftedDifferingShareOfInk > thresholds.maximumShiftedDifferingShareOfInk {
            failures.append("pixels: \(Self.percent(metrics.shiftedDifferingShareOfInk)) of the inked area differs (at most \(Self.percent(thresholds.maximumShiftedDifferingShareOfInk)))")
        }
        return failures
    }

    static func linkDifferences(_ linksA: [Link], _ linksB: [Link], names: (String, String)) -> [String] {
        guard linksA.count == linksB.count else {
            return ["links: \(names.0) finds \(linksA.count), \(names.1) finds \(linksB.count)"]
        }
        return zip(linksA, linksB).enumerated().compactMap { number, pair in
            let (x, y) = pair
            if !x.area.isClose(to: y.area) { return "link \(number + 1): areas differ" }
            if !x.destination.matches(y.destination) { return "link \(number + 1): targets differ" }
            return nil
        }
    }

    /// The annotations' kinds, in order, and their identities must agree.
    static func annotationDifferences(_ annotationsA: [Annotation], _ annotationsB: [Annotation], names: (String, String)) -> [String] {
        let kindsA = annotationsA.map(\.kind.rawValue), kindsB = annotationsB.map(\.kind.rawValue)
        guard kindsA == kindsB else {
            return ["annotations: \(names.0) finds \(kindsA.count) (\(kindsA.joined(separator: ", "))), \(names.1) finds \(kindsB.count) (\(kindsB.joined(separator: ", ")))"]
        }
        return zip(annotationsA, annotationsB).enumerated().compactMap { number, pair in
            pair.0.id == pair.1.id ? nil : "annotation \(number + 1): identities differ (\(pair.0.id), \(pair.1.id))"
        }
    }

    private func outlineDifferences(_ reference: Document, _ candidate: Document) -> [String] {
        guard let a = try? reference.outline(), let b = try? candidate.outline() else { return [] }
        func flatten(_ items: [OutlineItem], depth: Int = 0) -> [(depth: Int, item: OutlineItem)] {
            items.flatMap { [(depth, $0)] + flatten($0.children, depth: depth + 1) }
        }
        let (flatA, flatB) = (flatten(a), flatten(b))
        let names = (reference.renderer.id, candidate.renderer.id)
        guard flatA.count == flatB.count else {
            return ["outline: \(names.0) lists \(flatA.count) items, \(names.1) lists \(flatB.count)"]
        }
        for (x, y) in zip(flatA, flatB) {
            if x.depth != y.depth || x.item.title != y.item.title || x.item.isOpen != y.item.isOpen {
                return ["outline: '\(x.item.title)' in \(names.0), '\(y.item.title)' in \(names.1)"]
            }
            let same = switch (x.item.destination, y.item.destination) {
            case (let p?, let q?): p.matches(q)
            case (nil, nil): true
            default: false
            }
            if !same { return ["outline: '\(x.item.title)' leads to different places"] }
        }
        return []
    }

    static func percent(_ share: Double) -> String {
        share >= 0.1 || share == 0 ? String(format: "%.0f%%", share * 100) : String(format: "%.2f%%", share * 100)
    }

    /// Each of the five boxes on which the engines disagree by more than half a point.
    static func boxDifferences(_ boxesA: PageBoxes, _ boxesB: PageBoxes, names: (String, String)) -> [String] {
        let pairs = [("media", boxesA.media, boxesB.media), ("crop", boxesA.crop, boxesB.crop), ("bleed", boxesA.bleed, boxesB.bleed),
                     ("trim", boxesA.trim, boxesB.trim), ("art", boxesA.art, boxesB.art)]
        func text(_ box: UserRect) -> String { String(format: "[%.2f %.2f %.2f %.2f]", box.x0, box.y0, box.x1, box.y1) }
        return pairs.compactMap { name, boxA, boxB in
            let apart = [boxA.x0 - boxB.x0, boxA.y0 - boxB.y0, boxA.x1 - boxB.x1, boxA.y1 - boxB.y1].contains { abs($0) > 0.5 }
            return apart ? "\(name) box: \(names.0) \(text(boxA)), \(names.1) \(text(boxB))" : nil
        }
    }

    static func size(_ size: PageSize) -> String {
        String(format: "%.2f x %.2f pt", size.width, size.height)
    }
}
