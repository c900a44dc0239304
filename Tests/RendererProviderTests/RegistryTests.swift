import Foundation
import Testing

@testable import RendererProvider

/// A renderer that fails to open with a chosen error, or opens an empty document: for
/// testing how the registry chooses, never as a stand-in for an engine.
private struct ScriptedRenderer: Renderer {
    let id: String
    var failure: RendererError.Code?
    var capabilities: Set<Capability> = Set(Capability.allCases)
    let engineName = "Scripted"
    let engineVersion = "0"
    let contentTypes: Set<ContentType> = [.pdf]

    final class EmptyDocument: EngineDocument {
        let pageCount = 0
        func info() throws -> DocumentInfo { DocumentInfo(pageCount: 0, pdfVersion: "1.7") }
        func outline() throws -> [OutlineItem] { [] }
        func loadPage(at index: Int) throws -> any EnginePage { fatalError("the document has no pages") }
    }

    func openDocument(_ source: DocumentSource, password: String?) throws -> any EngineDocument {
        if let failure { throw RendererError(failure, "scripted failure", backend: id) }
        return EmptyDocument()
    }

    func pngData(for bitmap: Bitmap) throws -> Data { Data() }
}

@Suite("Choosing a renderer")
struct RegistryTests {
    let pdf = DocumentSource.memory(Data("%PDF-1.7\n".utf8))

    @Test func byIDAndUnknownID() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a"), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf, backend: .id("b")).renderer.id == "b")
        let error = #expect(throws: RendererError.self) { try registry.open(pdf, backend: .id("c")) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("a, b") == true)
    }

    @Test func autoTakesTheFirstAndFallsBackOnDamage() throws {
        let healthy = RendererRegistry([ScriptedRenderer(id: "a"), ScriptedRenderer(id: "b")])
        #expect(try healthy.open(pdf).renderer.id == "a")
        let damagedForA = RendererRegistry([ScriptedRenderer(id: "a", failure: .damaged), ScriptedRenderer(id: "b")])
        #expect(try damagedForA.open(pdf).renderer.id == "b")
        let damagedForAll = RendererRegistry([ScriptedRenderer(id: "a", failure: .damaged), ScriptedRenderer(id: "b", failure: .damaged)])
        #expect((#expect(throws: RendererError.self) { try damagedForAll.open(pdf) })?.backend == "a")
    }

    @Test func autoDoesNotFallBackOnPasswordErrors() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a", failure: .wrongPassword), ScriptedRenderer(id: "b")])
        #expect((#expect(throws: RendererError.self) { try registry.open(pdf, password: "x") })?.code == .wrongPassword)
    }

    @Test func capabilitiesDecide() throws {
        let noMemory = Set(Capability.allCases).subtracting([.openMemory])
        let registry = RendererRegistry([ScriptedRenderer(id: "a", capabilities: noMemory), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf).renderer.id == "b")
        #expect((#expect(throws: RendererError.self) { try registry.open(pdf, backend: .id("a")) })?.code == .unsupported)
        let none = RendererRegistry([ScriptedRenderer(id: "a", capabilities: noMemory)])
        #expect((#expect(throws: RendererError.self) { try none.open(pdf) })?.code == .unsupported)
    }

    @Test func notAPDFIsRefusedBeforeAnyRenderer() {
        let registry = RendererRegistry([ScriptedRenderer(id: "a")])
        #expect((#expect(throws: RendererError.self) { try registry.open(.memory(Data("hello".utf8))) })?.code == .unsupportedFormat)
    }
}
