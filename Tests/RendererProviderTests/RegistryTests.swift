import Foundation
import Testing

@testable import RendererProvider

/// A renderer that fails to open with a chosen error, or opens an empty document: for
/// testing how the registry chooses, never as a stand-in for an engine.
private struct ScriptedRenderer: Renderer {
    let id: String
    var failure: RendererError.Code?
    /// Every page of its documents reports this error when it is read.
    var pageFailure: RendererError.Code?
    var capabilities: Set<Capability> = Set(Capability.allCases)
    var isChosenByAuto = true
    let engineName = "Scripted"
    let engineVersion = "0"
    let contentTypes: Set<ContentType> = [.pdf]
    let annotationSupport = AnnotationSupport.none

    /// One page of 100 x 100 points that reports `failure` when read, if set.
    final class OnePageDocument: StubEngine {
        let id: String
        let failure: RendererError.Code?
        let pageCount = 1

        init(id: String, failure: RendererError.Code?) {
            self.id = id
            self.failure = failure
        }

        func info() throws -> PageInfo {
            if let failure { throw RendererError(failure, "scripted page failure", rendererID: id) }
            return PageInfo(index: 0, size: PageSize(width: 100, height: 100), rotation: .none, label: id)
        }
        func annotations() throws -> [Annotation] { [] }
        func addAnnotation(_ annotation: Annotation) throws -> Annotation { fatalError("not edited in these tests") }
        func updateAnnotation(_ annotation: Annotation) throws -> Annotation { fatalError("not edited in these tests") }
        func removeAnnotation(id: String) throws { fatalError("not edited in these tests") }
        let canSaveIncrementally = false
        func write(to path: String, incremental: Bool) throws { fatalError("not saved in these tests") }
    }

    func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
        if let failure { throw RendererError(failure, "scripted failure", rendererID: id) }
        return OnePageDocument(id: id, failure: pageFailure)
    }
}

@Suite("Choosing a renderer")
struct RegistryTests {
    let pdf = DocumentSource.memory(Data("%PDF-1.7\n".utf8))

    @Test func byIDAndUnknownID() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a"), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf, renderer: .id("b")).renderer.id == "b")
        let error = #expect(throws: RendererError.self) { try registry.open(pdf, renderer: .id("c")) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("a, b") == true)
    }

    @Test func autoTakesTheFirstAndFallsBackOnDamage() throws {
        let healthy = RendererRegistry([ScriptedRenderer(id: "a"), ScriptedRenderer(id: "b")])
        #expect(try healthy.open(pdf).renderer.id == "a")
        let damagedForA = RendererRegistry([ScriptedRenderer(id: "a", failure: .damaged), ScriptedRenderer(id: "b")])
        #expect(try damagedForA.open(pdf).renderer.id == "b")
        let damagedForAll = RendererRegistry([ScriptedRenderer(id: "a", failure: .damaged), ScriptedRenderer(id: "b", failure: .damaged)])
        #expect((#expect(throws: RendererError.self) { try damagedForAll.open(pdf) })?.rendererID == "a")
    }

    @Test func autoFallsBackWhenAPageIsDamaged() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a", pageFailure: .damaged), ScriptedRenderer(id: "b")])
        let document = try registry.open(pdf)
        #expect(document.renderer.id == "a")
        #expect(try document.pageInfo(pageAt: 0).label == "b")
        #expect(document.renderer.id == "b")
        // A renderer chosen by id does not fall back.
        let chosen = try registry.open(pdf, renderer: .id("a"))
        #expect((#expect(throws: RendererError.self) { try chosen.pageInfo(pageAt: 0) })?.code == .damaged)
    }

    @Test func autoDoesNotFallBackOnAWrongPassword() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a", failure: .wrongPassword), ScriptedRenderer(id: "b")])
        #expect((#expect(throws: RendererError.self) { try registry.open(pdf, password: "x") })?.code == .wrongPassword)
    }

    /// One engine may want a password for a file another opens without one (a file whose
    /// embedded files alone are encrypted: MuPDF 1.21 asks, Poppler does not). Without a
    /// password, `auto` tries the next; with one, a refusal stands.
    @Test func autoTriesTheNextEngineWhenOneWantsAPasswordNoneWasGivenFor() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a", failure: .passwordRequired), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf).renderer.id == "b")
        #expect((#expect(throws: RendererError.self) { try registry.open(pdf, renderer: .id("a")) })?.code == .passwordRequired)
        let both = RendererRegistry([ScriptedRenderer(id: "a", failure: .passwordRequired), ScriptedRenderer(id: "b", failure: .passwordRequired)])
        let error = #expect(throws: RendererError.self) { try both.open(pdf) }
        #expect(error?.code == .passwordRequired && error?.rendererID == "a")
    }

    @Test func capabilitiesDecide() throws {
        let noMemory = Set(Capability.allCases).subtracting([.openMemory])
        let registry = RendererRegistry([ScriptedRenderer(id: "a", capabilities: noMemory), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf).renderer.id == "b")
        #expect((#expect(throws: RendererError.self) { try registry.open(pdf, renderer: .id("a")) })?.code == .unsupported)
        let none = RendererRegistry([ScriptedRenderer(id: "a", capabilities: noMemory)])
        #expect((#expect(throws: RendererError.self) { try none.open(pdf) })?.code == .unsupported)
    }

    /// A renderer chosen by name only is passed over by `auto`, even listed first, and opens
    /// when named; alone, it leaves `auto` nothing to open with.
    @Test func aRendererChosenByNameOnlyIsLeftToItsName() throws {
        let registry = RendererRegistry([ScriptedRenderer(id: "a", isChosenByAuto: false), ScriptedRenderer(id: "b")])
        #expect(try registry.open(pdf).renderer.id == "b")
        #expect(try registry.open(pdf, renderer: .id("a")).renderer.id == "a")
        let alone = RendererRegistry([ScriptedRenderer(id: "a", isChosenByAuto: false)])
        #expect((#expect(throws: RendererError.self) { try alone.open(pdf) })?.code == .unsupported)
    }

    @Test func notAPDFIsRefusedBeforeAnyRenderer() {
        let registry = RendererRegistry([ScriptedRenderer(id: "a")])
        #expect((#expect(throws: RendererError.self) { try registry.open(.memory(Data("hello".utf8))) })?.code == .unsupportedFormat)
    }
}
