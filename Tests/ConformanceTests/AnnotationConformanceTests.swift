import Foundation
import RendererProvider
import Testing
import TestSupport

/// Annotations added, changed and removed through each backend, saved and read back.
@Suite("Annotations, on every backend")
struct AnnotationConformanceTests {
    /// Every creatable kind with every writable field, on an unrotated and a rotated page.
    @Test(arguments: Fixtures.backendIDs, [("text.pdf", 0), ("rotated.pdf", 1), ("cropbox.pdf", 0)])
    func addedAnnotationsReadBackAfterSaving(backend: String, page: (file: String, index: Int)) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path(page.file))
        let document = try Fixtures.registry.open(.file(path), backend: .id(backend))
        let support = document.renderer.annotationSupport
        let before = try document.annotations(onPageAt: page.index).count
        var added: [Annotation] = []
        for sample in AnnotationSamples.samples(for: document.renderer, pageIndex: page.index) {
            added.append(try document.add(sample))
        }
        #expect(Set(added.map(\.id)).count == added.count, "identities are unique")
        try document.save()

        let reopened = try Fixtures.registry.open(.file(path), backend: .id(backend))
        let read = try reopened.annotations(onPageAt: page.index)
        #expect(read.count == before + added.count)
        for (sample, stored) in zip(AnnotationSamples.samples(for: document.renderer, pageIndex: page.index), added) {
            guard let back = read.first(where: { $0.id == stored.id }) else {
                Issue.record("\(sample.kind) \(stored.id) is missing after saving")
                continue
            }
            let fields = support.writableFields(for: sample.kind).intersection(support.readableFields(for: sample.kind))
            #expect(AnnotationSamples.differences(sample, back, in: fields) == [], "\(backend) \(page.file)")
        }
    }
}
