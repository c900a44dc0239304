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
        let writer = try Fixtures.registry.open(.file(path), renderer: .id(engines.writer))
        let samples = AnnotationSamples.samples(pageIndex: page.index)
        let added = try samples.map { try writer.addAnnotation($0) }
        try writer.save()

        let reader = try Fixtures.registry.open(.file(path), renderer: .id(engines.reader))
        let read = try reader.annotations(pageAt: page.index)
        for (sample, stored) in zip(samples, added) {
            guard let back = read.first(where: { $0.id == stored.id }) else {
                Issue.record("\(sample.kind) \(stored.id) written by \(engines.writer) is not found by \(engines.reader): \(read.map(\.id))")
                continue
            }
            #expect(
                AnnotationSamples.differences(sample, back, in: Set(AnnotationField.allCases)) == [],
                "\(engines.writer) → \(engines.reader), \(page.file)")
        }
    }
}

import FoundationXML
import RendererProviderXFDF

/// XFDF written from one engine's document and imported into a fresh copy with the other.
@Suite("XFDF across engines")
struct XFDFRoundTripTests {
    @Test(arguments: AnnotationRoundTripTests.pairs, [("text.pdf", 0), ("rotated.pdf", 3)])
    func exportedFromOneImportedWithTheOther(engines: (writer: String, reader: String), page: (file: String, index: Int)) throws {
        let source = try Fixtures.registry.open(.file(AnnotationSamples.scratchCopy(of: Fixtures.path(page.file))), renderer: .id(engines.writer))
        let samples = AnnotationSamples.samples(pageIndex: page.index)
        let stored = try samples.map { try source.addAnnotation($0) }
        let xfdf = try source.xfdfData(fileName: page.file)

        let xml = try XMLDocument(data: xfdf)
        #expect(xml.rootElement()?.name == "xfdf")
        #expect(xml.rootElement()?.uri == XFDF.namespace)
        let elements = xml.rootElement()?.elements(forName: "annots").first?.children?.compactMap { ($0 as? XMLElement)?.name }
        #expect(elements == samples.map { $0.kind.rawValue.lowercased() })

        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path(page.file))
        let target = try Fixtures.registry.open(.file(path), renderer: .id(engines.reader))
        let result = try target.importXFDF(xfdf)
        #expect(result.skipped.isEmpty, "\(result.skipped.prefix(3))")
        #expect(result.imported.count == samples.count)
        #expect(result.droppedFields.isEmpty)
        try target.save()

        let read = try Fixtures.registry.open(.file(path), renderer: .id(engines.reader)).annotations(pageAt: page.index)
        #expect(read.map(\.kind) == samples.map(\.kind))
        for ((sample, original), back) in zip(zip(samples, stored), read) {
            #expect(
                AnnotationSamples.differences(sample, back, in: Set(AnnotationField.allCases)) == [],
                "\(engines.writer) → XFDF → \(engines.reader)")
            #expect(back.id == original.id)
        }
    }
}
