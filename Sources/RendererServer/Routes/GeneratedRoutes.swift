import Foundation
import OpenAPIRuntime
import RendererConversion
import RendererPrinting
import RendererProvider
import RendererServerHTTP

/// The operations whose types and registration swift-openapi-generator made from the
/// OpenAPI document (`make openapi`, into `Generated/`; `openapi-generator-config.yaml`
/// lists them): each takes and answers the document's own types, so the document and the
/// server cannot disagree on them. The request itself is reached through
/// ``RequestScopeMiddleware``. What a handler throws becomes a problem document as on every
/// other route (``ErrorMiddleware`` takes off the generated code's wrapping); the other
/// operations are still registered by hand in ``Routes/register(on:)``.
struct GeneratedRoutes: APIProtocol {
    let routes: Routes

    /// JSON as the other routes write it: keys sorted, slashes as they are, no indentation.
    static let configuration = Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])

    private var context: ServerContext { routes.context }

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

    /// A viewer tab opened: counted only by a server that ends with its viewer
    /// (``ServerConfiguration/endsWithViewer``).
    func viewerOpened(_ input: Operations.ViewerOpened.Input) async throws -> Operations.ViewerOpened.Output {
        await context.viewerPresence?.opened()
        return .noContent(.init())
    }

    /// A viewer tab went (see ``viewerOpened(_:)``).
    func viewerClosed(_ input: Operations.ViewerClosed.Input) async throws -> Operations.ViewerClosed.Output {
        await context.viewerPresence?.closed()
        return .noContent(.init())
    }

    /// The largest upload the server takes, and the extensions of the office and HTML
    /// documents it converts when it does (404 when it takes none).
    func uploadLimits(_ input: Operations.UploadLimits.Input) async throws -> Operations.UploadLimits.Output {
        let store = try routes.uploadStore()
        let office = context.officeConverter == nil ? nil : OfficeConverter.documentExtensions.sorted()
        let html = context.htmlConverter == nil ? nil : HTMLConverter.documentExtensions.sorted()
        return .ok(.init(body: .json(.init(maximumBytes: store.configuration.maximumBytes, officeDocuments: office, htmlDocuments: html))))
    }

    /// The outline, through the engine the request names.
    func outline(_ input: Operations.Outline.Input) async throws -> Operations.Outline.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document in try document.outline() }))))
    }

    /// The fonts the pages use, as `pdffonts` lists them.
    func fonts(_ input: Operations.Fonts.Input) async throws -> Operations.Fonts.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document in try document.fonts() }))))
    }

    /// The images the pages draw, as `pdfimages -list` lists them; 422 from an engine that
    /// cannot list them (Ghostscript).
    func images(_ input: Operations.Images.Input) async throws -> Operations.Images.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document in try document.images() }))))
    }

    /// Every page's size, rotation and label.
    func pages(_ input: Operations.Pages.Input) async throws -> Operations.Pages.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await context.queue.run { try await document.pageInfos() }))))
    }

    /// The files the document embeds, as `Attachment`s.
    func attachments(_ input: Operations.Attachments.Input) async throws -> Operations.Attachments.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document in try document.attachments() }))))
    }

    /// Where a named destination leads (a `#nameddest=` of an address); 404 when the document
    /// has none by that name.
    func namedDestination(_ input: Operations.NamedDestination.Input) async throws -> Operations.NamedDestination.Output {
        let name = input.path.name
        guard name.utf8.count <= 1000 else { throw APIError.badRequest("a destination's name is at most 1,000 bytes") }
        guard let destination = try await engineWork({ document in try document.destination(named: name) }) else {
            throw APIError.notFound("the document has no destination named \"\(name.prefix(80))\"")
        }
        return .ok(.init(body: .json(try Self.schema(destination))))
    }

    /// Every field, with its value, options, flags and widgets (page and rectangle in page
    /// space), as the document's session holds them; `[]` for a document without a form.
    func formFields(_ input: Operations.FormFields.Input) async throws -> Operations.FormFields.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await document.withSession { try $0.formFields() }))))
    }

    /// The reader's bookmarks, by page.
    func bookmarks(_ input: Operations.Bookmarks.Input) async throws -> Operations.Bookmarks.Output {
        let (document, reader) = try await readerDocument()
        return .ok(.init(body: .json(try Self.schema(try await context.readers.bookmarks(reader: reader, document: document.id)))))
    }

    /// The page, zoom and scroll position the reader left the document at.
    func viewingState(_ input: Operations.ViewingState.Input) async throws -> Operations.ViewingState.Output {
        let (document, reader) = try await readerDocument()
        let pageCount = try await document.pageCount()
        return .ok(.init(body: .json(try Self.schema(try await context.readers.viewingState(pageCount: pageCount, reader: reader, document: document.id)))))
    }

    /// The printers of the server's print server (``ServerConfiguration/printing``); 404 when
    /// the server does not print.
    func printers(_ input: Operations.Printers.Input) async throws -> Operations.Printers.Output {
        let service = try routes.printService()
        let printers = try await Routes.blocking { try service.printers() }
        return .ok(.init(body: .json(.init(printers: try Self.schema(printers)))))
    }

    /// Where a print job stands; 404 for a job the print server does not know.
    func printJobState(_ input: Operations.PrintJobState.Input) async throws -> Operations.PrintJobState.Output {
        let service = try routes.printService()
        let (printer, id) = (input.path.printer, input.path.job)
        guard id > 0 else { throw APIError.badRequest("a job is a number from 1") }
        do {
            let state = try await Routes.blocking { try service.state(of: PrintJob(id: id, printer: printer)) }
            return .ok(.init(body: .json(.init(state: try Self.schema(state)))))
        } catch let error as RendererError where error.code == .printJobFailed {
            throw APIError.notFound("\(printer) has no job \(id)")  // the print server does not know it
        }
    }

    /// The served document the request names, let in as ``Routes/servedDocument(_:_:)`` lets
    /// the hand-written routes' documents in.
    private func servedDocument() async throws -> ServedDocument {
        let scope = try RequestScopeMiddleware.scope()
        return try await routes.servedDocument(scope.request, scope.context)
    }

    /// The served document the request names and the reader it comes from.
    private func readerDocument() async throws -> (ServedDocument, String) {
        let scope = try RequestScopeMiddleware.scope()
        return try await routes.readerDocument(scope.request, scope.context)
    }

    /// Runs `body` on the served document the request names, as ``Routes/engineWork(_:_:_:)``
    /// does for the hand-written routes (admitted with the reader's key, through the engine
    /// `?renderer=` names, by the queue, within the time limit).
    private func engineWork<T: Sendable>(_ body: @escaping @Sendable (Document) throws -> T) async throws -> T {
        let scope = try RequestScopeMiddleware.scope()
        return try await routes.engineWork(scope.request, scope.context) { document, _ in try body(document) }
    }

    /// `value`, a library value the API answers as JSON, as the generated schema type `T`:
    /// written as the library writes it and read as the document describes it. A field the
    /// library writes and the document lacks is not answered; one the document requires and
    /// the library leaves out fails here (500) rather than at a client.
    static func schema<T: Decodable>(_ value: some Encodable) throws -> T {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: encoder.encode(value))
    }
}
