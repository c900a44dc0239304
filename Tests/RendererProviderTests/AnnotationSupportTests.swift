import Foundation
import Testing

@testable import RendererProvider

/// A renderer that declares limited annotation support and stores what it is given: for
/// testing that `Document` holds every renderer to what it declares before asking its
/// engine, never as a stand-in for an engine.
private struct LimitedRenderer: Renderer {
    let id = "limited"
    let engineName = "Limited"
    let engineVersion = "0"
    let contentTypes: Set<ContentType> = [.pdf]
    let capabilities: Set<Capability> = Set(Capability.allCases)
    let annotationSupport = AnnotationSupport(
        creatableKinds: [.square], readableFields: Set(AnnotationField.allCases), writableFields: [.rect, .color],
        writesNames: true, canRewrite: false)

    /// One blank page of 100 x 100 points holding the annotations added to it.
    final class BlankDocument: StubEngine {
        let pageCount = 1
        var stored: [Annotation] = []

        func info() throws -> PageInfo { PageInfo(index: 0, size: PageSize(width: 100, height: 100), rotation: .none, label: "1") }
        func annotations() throws -> [Annotation] { stored }
        func addAnnotation(_ annotation: Annotation) throws -> Annotation {
            stored.append(annotation)
            return annotation
        }
        func updateAnnotation(_ annotation: Annotation) throws -> Annotation { fatalError("not changed in these tests") }
        func removeAnnotation(id: String) throws { fatalError("not removed in these tests") }
        let canSaveIncrementally = true
        func write(to path: String, incremental: Bool) throws { fatalError("a refused save never reaches the engine") }
    }

    func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument { BlankDocument() }
}

@Suite("What a renderer declares about annotations")
struct AnnotationSupportTests {
    let document: Document

    init() throws {
        document = try RendererRegistry([LimitedRenderer()]).open(.memory(Data("%PDF-1.7\n".utf8)))
    }

    @Test func aKindTheRendererCannotCreateIsUnsupported() throws {
        let ink = Annotation(kind: .ink, pageIndex: 0, rect: PageRect(x: 0, y: 0, width: 10, height: 10), inkPaths: [[PagePoint(x: 1, y: 1), PagePoint(x: 9, y: 9)]])
        let error = #expect(throws: RendererError.self) { try document.addAnnotation(ink) }
        #expect(error?.code == .unsupported)
        #expect(error?.message == "Limited cannot create Ink annotations here")
        #expect(try document.annotations().isEmpty)
    }

    @Test func aFieldTheRendererCannotWriteIsUnsupportedAndNamed() throws {
        let square = Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20), contents: "hello", author: "Ada")
        let error = #expect(throws: RendererError.self) { try document.addAnnotation(square) }
        #expect(error?.code == .unsupported)
        #expect(error?.message == "Limited cannot write the fields contents, author of Square annotations")
        #expect(try document.annotations().isEmpty)

        let plain = Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20), color: .black)
        #expect(try document.addAnnotation(plain).color == .black)
        #expect(try document.annotations().count == 1)
    }

    @Test func aRewriteTheRendererCannotDoIsUnsupportedAndWritesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("support-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("out.pdf").path
        let error = #expect(throws: RendererError.self) { try document.save(to: target, mode: .rewrite) }
        #expect(error?.code == .unsupported)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
