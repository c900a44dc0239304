import Foundation
import RendererProvider
import RendererProviderXFDF
import Testing
import TestSupport

/// Comment threads: replies (`/IRT`) and review states (`/State`, `/StateModel`) written by
/// one engine, read by the other and by pypdf, carried by XFDF, and removed with their root.
@Suite("Comment threads across engines")
struct CommentThreadTests {
    static let root = Annotation(
        kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 72, width: 120, height: 60), color: Color(red: 0, green: 0, blue: 1),
        contents: "Is this figure right?", author: "ada")

    /// A root, a reply to it, a reply to the reply and a review state, on one page.
    static func thread(in document: Document) throws -> [Annotation] {
        let root = try document.addAnnotation(Self.root)
        let reply = try document.addAnnotation(Annotation(
            kind: .text, pageIndex: 0, rect: PageRect(x: 200, y: 72, width: 20, height: 20), contents: "It is.", author: "grace", inReplyTo: root.id))
        let answer = try document.addAnnotation(Annotation(
            kind: .text, pageIndex: 0, rect: PageRect(x: 230, y: 72, width: 20, height: 20), contents: "Thanks.", author: "ada", inReplyTo: reply.id))
        let state = try document.addAnnotation(Annotation(
            kind: .text, pageIndex: 0, rect: PageRect(x: 260, y: 72, width: 20, height: 20), author: "grace", flags: [.print, .hidden],
            inReplyTo: root.id, reviewState: .accepted))
        return [root, reply, answer, state]
    }

    @Test(arguments: AnnotationRoundTripTests.pairs)
    func writtenByOneReadByTheOther(engines: (writer: String, reader: String)) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let writer = try await Fixtures.registry.open(.file(path), renderer: .id(engines.writer))
        let written = try Self.thread(in: writer)
        #expect(written.map(\.inReplyTo) == [nil, written[0].id, written[1].id, written[0].id])
        #expect(written[3].reviewState == .accepted)
        try writer.save()

        let read = try await Fixtures.registry.open(.file(path), renderer: .id(engines.reader)).annotations(pageAt: 0)
        #expect(read.map(\.id) == written.map(\.id))
        #expect(read.map(\.inReplyTo) == written.map(\.inReplyTo), "\(engines)")
        #expect(read.map(\.reviewState) == [nil, nil, nil, .accepted], "\(engines)")
        #expect(read.threads().map { $0.map(\.id) } == [written.map(\.id)])
        #expect(read.replies(to: written[1].id).map(\.id) == [written[2].id])

        // pypdf, which shares no code with either engine: /IRT is a reference to the root's
        // object (the notes' popups left out).
        let witness = try await Tool.run("python3", ["-c", """
            import sys, pypdf
            annots = [a.get_object() for a in pypdf.PdfReader(sys.argv[1]).pages[0]["/Annots"]]
            annots = [a for a in annots if a.get("/Subtype") != "/Popup"]
            index = {a.get("/NM"): i for i, a in enumerate(annots)}
            for a in annots:
                irt = a.get("/IRT")
                print(a.get("/NM"), index.get(irt.get_object().get("/NM")) if irt is not None else "-", a.get("/State", "-"), a.get("/StateModel", "-"))
            """, path])
        #expect(witness.status == 0, "\(witness.stderr)")
        let lines = witness.text.split(separator: "\n").map(String.init)
        let ids = written.map(\.id)
        #expect(lines == ["\(ids[0]) - - -", "\(ids[1]) 0 - -", "\(ids[2]) 1 - -", "\(ids[3]) 0 Accepted Review"], "\(lines)")
    }

    /// Removing the root removes its thread, replies of replies too, and nothing else.
    @Test(arguments: Fixtures.backendIDs)
    func aRootGoesWithItsThread(backend: String) throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let document = try Fixtures.registry.open(.file(path), renderer: .id(backend))
        let other = try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 72, y: 400, width: 50, height: 50)))
        let thread = try Self.thread(in: document)
        try document.removeAnnotation(withID: thread[0].id)
        #expect(try document.annotations(pageAt: 0).map(\.id) == [other.id])
        // An annotation answers one of its own page that exists, and never itself.
        #expect { try document.addAnnotation(Annotation(kind: .text, pageIndex: 0, rect: Self.root.rect, inReplyTo: "nowhere")) } throws: {
            ($0 as? RendererError)?.code == .invalidArgument
        }
        var selfReply = other
        selfReply.inReplyTo = other.id
        #expect { try document.updateAnnotation(selfReply) } throws: { ($0 as? RendererError)?.code == .invalidArgument }
    }

    /// XFDF carries the thread (`inreplyto`, `state`, `statemodel`) into a fresh copy.
    @Test(arguments: AnnotationRoundTripTests.pairs)
    func xfdfCarriesTheThread(engines: (writer: String, reader: String)) throws {
        let source = try Fixtures.registry.open(.file(try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))), renderer: .id(engines.writer))
        let written = try Self.thread(in: source)
        let xfdf = try source.xfdfData()
        #expect(String(decoding: xfdf, as: UTF8.self).contains("inreplyto=\"\(written[0].id)\""))
        let target = try Fixtures.registry.open(.file(try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))), renderer: .id(engines.reader))
        _ = try target.importXFDF(xfdf)
        let read = try target.annotations(pageAt: 0)
        #expect(read.map(\.inReplyTo) == written.map(\.inReplyTo) && read.map(\.reviewState) == written.map(\.reviewState), "\(engines)")
    }
}
