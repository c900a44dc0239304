import Foundation
import RendererProvider
import Testing
import TestSupport

/// Annotations written by one engine and read by the other.
@Suite("Annotations across engines")
struct AnnotationRoundTripTests {
    static let pairs = [("mupdf", "poppler"), ("poppler", "mupdf")]

    /// An added annotation is returned as the page's listing has it (each engine reads back
    /// only the annotation it made), and an import of hundreds onto one page, replies among
    /// them, stores each once under its identity, as pypdf counts them in the saved file.
    @Test(arguments: ["mupdf", "poppler"])
    func addedAndImportedAnnotationsReadBackAsListed(engine: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try Fixtures.registry.open(.file(path), renderer: .id(engine))
        let added = try AnnotationSamples.samples(pageIndex: 0).map { try document.addAnnotation($0) }
        let listed = try document.annotations(pageAt: 0)
        for stored in added {
            #expect(listed.first { $0.id == stored.id } == stored, "\(stored.kind) \(stored.id)")
        }
        var incoming = (0..<300).map { i in
            Annotation(kind: .square, pageIndex: 1, rect: PageRect(x: 20 + Double(i % 30) * 15, y: 40 + Double(i / 30) * 15, width: 10, height: 10))
        }
        for i in incoming.indices { incoming[i].id = "square-\(i)" }
        var reply = Annotation(kind: .text, pageIndex: 1, rect: PageRect(x: 500, y: 500, width: 20, height: 20), contents: "answer")
        reply.id = "reply"
        reply.inReplyTo = "square-7"
        let result = try document.importAnnotations([reply] + incoming)
        #expect(result.skipped.isEmpty, "\(result.skipped)")
        // The reply, given first, comes right after the square it answers.
        #expect(result.imported.map(\.id) == incoming[...7].map(\.id) + ["reply"] + incoming[8...].map(\.id))
        let page = try document.annotations(pageAt: 1)
        #expect(page.count == 301)
        #expect(page.first { $0.id == "reply" }?.inReplyTo == "square-7")
        for stored in result.imported { #expect(page.first { $0.id == stored.id } == stored, "\(stored.id)") }
        // Importing the same again replaces each: nothing is added.
        #expect(try document.importAnnotations(incoming).imported.count == 300)
        #expect(try document.annotations(pageAt: 1).count == 301)
        try document.save()
        // pypdf counts the page's annotations but popups (MuPDF gives the note one).
        let script = "import pypdf,sys; print(sum(a.get_object()['/Subtype'] != '/Popup' for a in pypdf.PdfReader(sys.argv[1]).pages[1]['/Annots']))"
        let counted = try Tool.runBlocking("python3", ["-c", script, path])
        #expect(counted.text.trimmingCharacters(in: .whitespacesAndNewlines) == "301", "\(counted.stderr)")
    }

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
