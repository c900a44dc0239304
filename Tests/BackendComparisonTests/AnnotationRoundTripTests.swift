import Foundation
import RendererProvider
import Testing
import TestSupport

/// Annotations written by one engine and read by the other.
@Suite("Annotations across engines")
struct AnnotationRoundTripTests {
    static let pairs = [("mupdf", "poppler"), ("poppler", "mupdf")]

    @Test(arguments: pairs, [("text.pdf", 0), ("rotated.pdf", 1), ("cropbox.pdf", 0)])
    func writtenByOneReadByTheOther(engines: (writer: String, reader: String), page: (file: String, index: Int)) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path(page.file))
        let writer = try Fixtures.registry.open(.file(path), backend: .id(engines.writer))
        let samples = AnnotationSamples.samples(for: writer.renderer, pageIndex: page.index)
        let added = try samples.map { try writer.add($0) }
        try writer.save()

        let reader = try Fixtures.registry.open(.file(path), backend: .id(engines.reader))
        let read = try reader.annotations(onPageAt: page.index)
        for (sample, stored) in zip(samples, added) {
            guard let back = read.first(where: { $0.id == stored.id }) else {
                Issue.record("\(sample.kind) \(stored.id) written by \(engines.writer) is not found by \(engines.reader): \(read.map(\.id))")
                continue
            }
            let fields = writer.renderer.annotationSupport.writableFields(for: sample.kind)
                .intersection(reader.renderer.annotationSupport.readableFields(for: sample.kind))
            #expect(AnnotationSamples.differences(sample, back, in: fields) == [], "\(engines.writer) → \(engines.reader), \(page.file)")
        }
    }
}
