import RendererProvider
import Testing
import TestSupport

/// What a renderer declares against what its documents and pages do: each capability needs
/// a protocol of the engine contract (`Capability.isServed(by:page:)`), and none of them has
/// a default answer, so a declared capability without the protocol, or an isolated call
/// nobody forwards, fails here rather than at a user's first call.
@Suite("Capabilities and the engine contract")
struct CapabilityConformanceTests {
    /// A document of each content type the renderers open.
    static let documents = ["text.pdf", "book.epub", "comic.cbz", "pages.xps", "image.png"]

    @Test(arguments: Fixtures.conformanceRegistry.renderers.map(\.id))
    func everyDeclaredCapabilityIsServed(_ rendererID: String) throws {
        let renderer = try Fixtures.conformanceRegistry.renderer(id: rendererID)
        var opened = 0
        for name in Self.documents {
            let source = DocumentSource.file(Fixtures.path(name))
            guard renderer.contentTypes.contains(try source.sniffContentType()) else { continue }
            let document = try renderer.openDocument(source, password: nil, limits: DocumentLimits())
            let page = try document.loadPage(at: 0)
            let unserved = renderer.capabilities(for: document.contentType).filter { !$0.isServed(by: document, page: page) }
            #expect(unserved.isEmpty, "\(rendererID) declares \(unserved.sorted().map(\.rawValue)) for \(name) without serving them")
            opened += 1
        }
        #expect(opened > 0)
    }

    /// The isolated documents forward every call: they serve every capability whatever the
    /// engine behind them declares (which answers `unsupported` itself).
    @Test(arguments: Fixtures.isolatedBackendIDs)
    func anIsolatedDocumentForwardsEveryCapability(_ rendererID: String) throws {
        let renderer = try Fixtures.conformanceRegistry.renderer(id: rendererID)
        let document = try renderer.openDocument(.file(Fixtures.path("text.pdf")), password: nil, limits: DocumentLimits())
        let page = try document.loadPage(at: 0)
        #expect(Capability.allCases.filter { !$0.isServed(by: document, page: page) } == [])
    }

    /// The table can say no: Ghostscript's documents save nothing and read no metadata,
    /// Poppler's do not change password protection, and asking for what a document does not
    /// do is `unsupported`, saying what that is.
    @Test func whatAnEngineDoesNotDoIsNotServed() throws {
        let source = DocumentSource.file(Fixtures.path("text.pdf"))
        let ghostscript = try Fixtures.conformanceRegistry.renderer(id: "ghostscript").openDocument(source, password: nil, limits: DocumentLimits())
        let ghostscriptPage = try ghostscript.loadPage(at: 0)
        for capability in [Capability.save, .metadata, .links, .annotations, .editPages] {
            #expect(!capability.isServed(by: ghostscript, page: ghostscriptPage), "\(capability)")
        }
        let poppler = try Fixtures.conformanceRegistry.renderer(id: "poppler").openDocument(source, password: nil, limits: DocumentLimits())
        let popplerPage = try poppler.loadPage(at: 0)
        #expect(!Capability.protect.isServed(by: poppler, page: popplerPage) && Capability.save.isServed(by: poppler, page: popplerPage))
        let refused = #expect(throws: RendererError.self) { try ghostscript.capability(DocumentSaving.self, rendererID: "ghostscript") }
        #expect(refused?.code == .unsupported && refused?.rendererID == "ghostscript")
        #expect(refused?.message == "this engine does not save documents", "\(String(describing: refused))")
    }

    /// Each capability protocol has words of its own for its refusal ("this engine does not
    /// read outlines"), not the fallback that names the protocol: Ghostscript's document and
    /// page, which conform to none of them, are asked for each in turn.
    @Test func everyCapabilityProtocolSaysWhatItDoes() throws {
        let document = try Fixtures.conformanceRegistry.renderer(id: "ghostscript")
            .openDocument(.file(Fixtures.path("text.pdf")), password: nil, limits: DocumentLimits())
        let page = try document.loadPage(at: 0)
        let asks: [(String, () throws -> Any)] = [
            ("MetadataReading", { try document.capability(MetadataReading.self) }),
            ("MetadataWriting", { try document.capability(MetadataWriting.self) }),
            ("OutlineReading", { try document.capability(OutlineReading.self) }),
            ("OutlineWriting", { try document.capability(OutlineWriting.self) }),
            ("LinkWriting", { try document.capability(LinkWriting.self) }),
            ("StructureReading", { try document.capability(StructureReading.self) }),
            ("ContentReading", { try document.capability(ContentReading.self) }),
            ("AttachmentReading", { try document.capability(AttachmentReading.self) }),
            ("AttachmentWriting", { try document.capability(AttachmentWriting.self) }),
            ("OptionalContentControl", { try document.capability(OptionalContentControl.self) }),
            ("DocumentSaving", { try document.capability(DocumentSaving.self) }),
            ("ProtectedSaving", { try document.capability(ProtectedSaving.self) }),
            ("SignatureReading", { try document.capability(SignatureReading.self) }),
            ("DocumentSigning", { try document.capability(DocumentSigning.self) }),
            ("FormReading", { try document.capability(FormReading.self) }),
            ("FormFilling", { try document.capability(FormFilling.self) }),
            ("FormFlattening", { try document.capability(FormFlattening.self) }),
            ("PageEditing", { try document.capability(PageEditing.self) }),
            ("PageMerging", { try document.capability(PageMerging.self) }),
            ("Reflowing", { try document.capability(Reflowing.self) }),
            ("LinkReading", { try page.capability(LinkReading.self) }),
            ("AnnotationReading", { try page.capability(AnnotationReading.self) }),
            ("AnnotationWriting", { try page.capability(AnnotationWriting.self) }),
            ("ImageStamping", { try page.capability(ImageStamping.self) }),
            ("Redacting", { try page.capability(Redacting.self) }),
        ]
        var words: Set<String> = []
        for (name, ask) in asks {
            let refused = #expect(throws: RendererError.self, "\(name)") { _ = try ask() }
            let message = refused?.message ?? ""
            #expect(refused?.code == .unsupported && message.hasPrefix("this engine does not ") && !message.contains(name), "\(name): \(message)")
            words.insert(message)
        }
        #expect(words.count == asks.count, "two protocols share their words: \(words.sorted())")
    }
}
