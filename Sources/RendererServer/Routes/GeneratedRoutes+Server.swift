import Foundation
import OpenAPIRuntime
import RendererConversion
import RendererIsolation
import RendererProvider
import RendererServerHTTP

/// The server's own facts: whether it is up and ready, what it serves and takes, what it
/// measured of itself, its API document, and the viewer tabs it counts.
extension GeneratedRoutes {
    /// The server is up: its engines, the engine tasks queued, the bytes of page images being
    /// drawn and kept, its limits, and how it reads scanned pages. A draining server still
    /// answers it (``ShutdownMiddleware``).
    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        let configuration = context.configuration
        let recognition: Components.Schemas.Health.TextRecognitionPayload =
            configuration.textRecognition != nil ? .automatic : configuration.textRecognitionOnRequest != nil ? .onRequest : .none
        let health = Components.Schemas.Health(
            status: "ok", renderers: context.registry.renderers.map { .init(id: $0.id, engine: $0.engineName, version: $0.engineVersion) },
            queued: context.queue.count, renderingBytes: context.renderBudget.count, cachedBytes: await context.cache.byteCount,
            limits: try Self.schema(context.limits), textRecognition: recognition)
        return .ok(.init(body: .json(health)))
    }

    /// 200 when this server takes requests, for a load balancer's or Kubernetes' readiness
    /// check: it is not draining (then the shutdown gate answers 503 first), it has an engine
    /// to draw with, and the layers' database, when it collaborates, answers within two
    /// seconds. Otherwise 503 `not-ready`, saying which.
    func ready(_ input: Operations.Ready.Input) async throws -> Operations.Ready.Output {
        guard !context.registry.renderers.isEmpty else { throw APIError.notReady("no engine is loaded") }
        if let collaboration = context.collaboration, !(await collaboration.databaseAnswers(within: .seconds(2))) {
            throw APIError.notReady("the layers' database does not answer")
        }
        return .ok(.init(body: .json(.init(status: .ready))))
    }

    /// Every servable document with its size; one that went since it was listed is left out.
    func documents(_ input: Operations.Documents.Input) async throws -> Operations.Documents.Output {
        let catalog = routes.library.catalog
        let summaries = catalog.documentIDs().compactMap { id -> Components.Schemas.DocumentSummary? in
            guard let path = try? catalog.resolve(id: id),
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            else { return nil }
            return Components.Schemas.DocumentSummary(id: id, bytes: size)
        }
        return .ok(.init(body: .json(summaries)))
    }

    /// The library's table of annotation kinds (`AnnotationKindTraits.table`), row by row.
    func annotationKinds(_ input: Operations.AnnotationKinds.Input) async throws -> Operations.AnnotationKinds.Output {
        let rows = AnnotationKindTraits.table.map { kind, traits in
            let (geometry, minimumVertices): (Components.Schemas.AnnotationKindTraits.GeometryPayload, Int?) =
                switch traits.geometry {
                case .rect: (.rect, nil)
                case .quads: (.quads, nil)
                case .inkPaths: (.inkPaths, nil)
                case .line: (.line, nil)
                case .vertices(let minimum): (.vertices, minimum)
                }
            return Components.Schemas.AnnotationKindTraits(
                kind: kind.rawValue, geometry: geometry, minimumVertices: minimumVertices, textMarkup: traits.isTextMarkup,
                icon: traits.hasIcon, interiorColor: traits.hasInteriorColor, border: traits.hasBorder, textStyle: traits.hasTextStyle,
                creatable: traits.isCreatable)
        }
        return .ok(.init(body: .json(rows)))
    }

    /// The largest upload the server takes, and the extensions of the office and HTML
    /// documents it converts when it does (404 when it takes none).
    func uploadLimits(_ input: Operations.UploadLimits.Input) async throws -> Operations.UploadLimits.Output {
        let store = try routes.uploadStore()
        let office = context.officeConverter == nil ? nil : OfficeConverter.documentExtensions.sorted()
        let html = context.htmlConverter == nil ? nil : HTMLConverter.documentExtensions.sorted()
        return .ok(.init(body: .json(.init(maximumBytes: store.configuration.maximumBytes, officeDocuments: office, htmlDocuments: html))))
    }

    /// A viewer tab opened: counted only by a server that ends with its viewer
    /// (``ServerConfiguration/endsWithViewer``).
    func viewerOpened(_ input: Operations.ViewerOpened.Input) async throws -> Operations.ViewerOpened.Output {
        let tab = try Self.viewerTab(input.query.tab)
        await context.viewerPresence?.opened(tab)
        return .noContent(.init())
    }

    /// A viewer tab went (see ``viewerOpened(_:)``).
    func viewerClosed(_ input: Operations.ViewerClosed.Input) async throws -> Operations.ViewerClosed.Output {
        let tab = try Self.viewerTab(input.query.tab)
        await context.viewerPresence?.closed(tab)
        return .noContent(.init())
    }

    /// A tab's name as `?tab=` gives it: 1 to 64 letters, digits and hyphens, or none.
    private static func viewerTab(_ name: String?) throws -> String? {
        guard let name else { return nil }
        guard (1...64).contains(name.utf8.count), name.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw APIError.badRequest("tab must be 1 to 64 letters, digits and hyphens")
        }
        return name
    }

    /// What the server measured of itself (``ServerMetrics``), in Prometheus' text format
    /// (version 0.0.4), for a scraper that sends the token.
    func metrics(_ input: Operations.Metrics.Input) async throws -> Operations.Metrics.Output {
        let bytes = context.metrics.exposition(
            ServerMetrics.Readings(
                queueDepth: context.queue.count, openWebSockets: context.collaboration?.sockets.count ?? 0,
                database: context.collaboration?.databaseUse,
                engineProcesses: (EngineProcessTally.started, EngineProcessTally.restarted)))
        // The format's version, which the document's `text/plain` leaves out.
        try RequestScopeMiddleware.scope().answer(.contentType, "text/plain; version=0.0.4; charset=utf-8")
        return .ok(.init(body: .plainText(HTTPBody(bytes.readableBytesView))))
    }

    /// The API's OpenAPI 3.1 document, as the module ships it with this server's facts
    /// stated (``OpenAPIDocument``).
    func openapi(_ input: Operations.Openapi.Input) async throws -> Operations.Openapi.Output {
        let document = try OpenAPIDocument(rendererIDs: context.rendererIDs, limits: context.limits)
        return .ok(.init(body: .json(try JSONDecoder().decode(OpenAPIObjectContainer.self, from: document.data))))
    }
}
