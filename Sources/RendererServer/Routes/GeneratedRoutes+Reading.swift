import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP
import RendererSignatures

/// What a document holds, read through the engine a request names (`?renderer=`) or the session.
extension GeneratedRoutes {
    /// The outline, through the engine the request names.
    func outline(_ input: Operations.Outline.Input) async throws -> Operations.Outline.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document, _ in try document.outline() }))))
    }

    /// The fonts the pages use, as `pdffonts` lists them.
    func fonts(_ input: Operations.Fonts.Input) async throws -> Operations.Fonts.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document, _ in try document.fonts() }))))
    }

    /// The images the pages draw, as `pdfimages -list` lists them; 422 from an engine that
    /// cannot list them (Ghostscript).
    func images(_ input: Operations.Images.Input) async throws -> Operations.Images.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document, _ in try document.images() }))))
    }

    /// Every page's size, rotation and label.
    func pages(_ input: Operations.Pages.Input) async throws -> Operations.Pages.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await context.queue.run { try await document.pageInfos() }))))
    }

    /// The files the document embeds, as `Attachment`s.
    func attachments(_ input: Operations.Attachments.Input) async throws -> Operations.Attachments.Output {
        .ok(.init(body: .json(try Self.schema(try await engineWork { document, _ in try document.attachments() }))))
    }

    /// Where a named destination leads (a `#nameddest=` of an address); 404 when the document
    /// has none by that name.
    func namedDestination(_ input: Operations.NamedDestination.Input) async throws -> Operations.NamedDestination.Output {
        let name = input.path.name
        guard name.utf8.count <= 1000 else { throw APIError.badRequest("a destination's name is at most 1,000 bytes") }
        guard let destination = try await engineWork({ document, _ in try document.destination(named: name) }) else {
            throw APIError.notFound("the document has no destination named \"\(name.prefix(80))\"")
        }
        return .ok(.init(body: .json(try Self.schema(destination))))
    }

    /// The document's facts through the engine the request names, with its first page (the
    /// rest come from `pages`), the version its entity tags are built on, and what the reader
    /// may do with it by the server's settings and the PDF's permissions.
    func documentInfo(_ input: Operations.DocumentInfo.Input) async throws -> Operations.DocumentInfo.Output {
        let document = try await servedDocument()
        let renderer = try await rendererID(document)
        let version = await document.currentVersion()
        let timeLimit = context.configuration.timeLimit
        let (info, first) = try await context.queue.run {
            try await document.pool(renderer).run(timeLimit: timeLimit) { document, _ in
                (try document.info(), document.pageCount > 0 ? try document.pageInfo(pageAt: 0) : nil)
            }
        }
        let permitted = try await document.permitted([.printing, .saveTo, .copying, .formFilling, .signing, .fullScreen, .darkMode])
        let configuration = context.configuration
        let details = Components.Schemas.DocumentDetails(
            id: document.id, renderer: renderer, renderers: context.rendererIDs, version: version, info: try Self.schema(info),
            firstPage: try first.map { try Self.schema($0) }, editable: configuration.allowsEditing,
            fileSize: ((try? FileManager.default.attributesOfItem(atPath: document.path))?[.size] as? Int) ?? 0,
            allows: .init(
                printing: permitted.contains(.printing), download: permitted.contains(.saveTo), copying: permitted.contains(.copying),
                formFilling: permitted.contains(.formFilling) && configuration.allowsEditing,
                signing: permitted.contains(.signing) && configuration.allowsEditing && configuration.signingIdentity != nil,
                fullScreen: permitted.contains(.fullScreen), darkMode: permitted.contains(.darkMode)))
        return .ok(.init(body: .json(details)))
    }

    /// A page's words and their boxes, by line (a line of only spaces left out), for the
    /// viewer's text layer.
    func pageText(_ input: Operations.PageText.Input) async throws -> Operations.PageText.Output {
        let page = try Routes.pageIndex(input.path.page)
        typealias Line = Components.Schemas.TextLayer.LinesPayloadPayload
        let layer = try await engineWork { document, renderer in
            let size = try document.pageInfo(pageAt: page).size
            let lines = try document.textPage(pageAt: page).lines.compactMap { line -> Line? in
                let words = line.words.filter { !$0.text.allSatisfy(\.isWhitespace) }
                    .map { Line.WordsPayloadPayload(text: $0.text, bounds: .init($0.bounds)) }
                return words.isEmpty ? nil : .init(bounds: .init(line.bounds), words: words)
            }
            return Components.Schemas.TextLayer(
                pageIndex: page, renderer: renderer, size: .init(width: size.width, height: size.height), lines: lines)
        }
        return .ok(.init(body: .json(layer)))
    }

    /// The page's links, as the API's links.
    func pageLinks(_ input: Operations.PageLinks.Input) async throws -> Operations.PageLinks.Output {
        let page = try Routes.pageIndex(input.path.page)
        return .ok(.init(body: .json(try Self.schema(try await engineWork { document, _ in try document.links(pageAt: page) }))))
    }

    /// The optional-content groups and configurations (``OptionalContentGroup``,
    /// ``OptionalContentConfiguration``); both empty for a document whose engine reads none
    /// (a format other than PDF). The groups are also under `layers`, their former name.
    func optionalContent(_ input: Operations.OptionalContent.Input) async throws -> Operations.OptionalContent.Output {
        .ok(.init(body: .json(try await optionalContentGroups())))
    }

    /// The former path of ``optionalContent(_:)``, answering the same, kept for this release.
    func layers(_ input: Operations.Layers.Input) async throws -> Operations.Layers.Output {
        .ok(.init(body: .json(try await optionalContentGroups())))
    }

    /// Signs the document with the server's signing identity as the body asks
    /// (``Payload/SignRequest``), in an incremental update saved over the file, and answers
    /// every field's verdict then; 201. 403 when the server holds no identity, is read-only,
    /// or the settings or the PDF forbid signing.
    func sign(_ input: Operations.Sign.Input) async throws -> Operations.Sign.Output {
        guard let identity = context.configuration.signingIdentity else { throw APIError.forbidden("this server was given no signing identity") }
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let options = try Self.library(body, as: Payload.SignRequest.self).options()
        let verdicts = try await routes.signed(document, as: identity, options: options, try RequestScopeMiddleware.scope().request)
        try answerLocation(document: document.id, "signatures")
        return .created(.init(body: .json(try Self.schema(verdicts))))
    }

    /// Each signature field's verdict with its reasons (``SignatureVerification``), against
    /// the trust anchors the server was given.
    func signatures(_ input: Operations.Signatures.Input) async throws -> Operations.Signatures.Output {
        let scope = try RequestScopeMiddleware.scope()
        return .ok(.init(body: .json(try Self.schema(try await routes.verdicts(of: try await servedDocument(), scope.request)))))
    }

    private func optionalContentGroups() async throws -> Components.Schemas.OptionalContent {
        let (groups, configurations) = try await engineWork { document, _ -> ([OptionalContentGroup], [OptionalContentConfiguration]) in
            guard document.renderer.capabilities(for: document.contentType).contains(.optionalContent) else { return ([], []) }
            return (try document.optionalContentGroups(), try document.optionalContentConfigurations())
        }
        let schemaGroups: [Components.Schemas.OptionalContentGroup] = try Self.schema(groups)
        return .init(groups: schemaGroups, configurations: try Self.schema(configurations), layers: schemaGroups)
    }
}

extension Components.Schemas.Rect {
    /// `rect` as the document writes a rectangle.
    init(_ rect: PageRect) {
        self.init(origin: .init(x: rect.origin.x, y: rect.origin.y), size: .init(width: rect.size.width, height: rect.size.height))
    }
}
