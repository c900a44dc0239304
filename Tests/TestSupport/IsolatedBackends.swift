import Foundation
import RendererIsolation
import RendererProvider

/// MuPDF and Poppler again, each in engine processes (hostapp-full's `worker`, built beside
/// the tests), under ids of their own (`isolated-mupdf`, `isolated-poppler`), so that the
/// conformance suites run over them too and a call the isolation does not forward fails a
/// test. `auto` never chooses them.
enum IsolatedBackends {
    /// What an isolated engine's id starts with.
    static let prefix = "isolated-"
    static let ids = Fixtures.backendIDs.map { prefix + $0 }

    /// The isolated renderers, for ``Fixtures/registry``.
    static func renderers(isolating engines: [any Renderer]) -> [any Renderer] {
        let worker = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hostapp-full").path
        let isolation = IsolationOptions(executable: worker, arguments: ["worker"])
        return engines.map { Renamed(id: prefix + $0.id, base: IsolatedRenderer($0, isolation: isolation)) }
    }

    /// `base` under the id `id`.
    struct Renamed: Renderer {
        let id: String
        let base: any Renderer
        var engineName: String { base.engineName }
        var engineVersion: String { base.engineVersion }
        var contentTypes: Set<ContentType> { base.contentTypes }
        var capabilities: Set<Capability> { base.capabilities }
        func capabilities(for contentType: ContentType) -> Set<Capability> { base.capabilities(for: contentType) }
        var annotationSupport: AnnotationSupport { base.annotationSupport }
        var isChosenByAuto: Bool { false }
        func openDocument(_ source: DocumentSource, password: String?, limits: DocumentLimits) throws -> any EngineDocument {
            try base.openDocument(source, password: password, limits: limits)
        }
    }
}
