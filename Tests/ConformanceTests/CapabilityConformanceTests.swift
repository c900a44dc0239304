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
}
