import Foundation
import HostCommands
import MCP
import RendererProvider

/// The tools an agent calls, each defined once here: its name, what it does, the JSON schema
/// of its arguments (from which the accepted argument names derive), whether it changes the
/// document, and its work. Every tool names a document of the served folder by its path
/// relative to it (``AgentDocuments``), and works under the command line's global options:
/// renderer, password, settings, limits.
struct DocumentTool: Sendable {
    var name: String
    var description: String
    /// The arguments besides `document`, as JSON schema properties.
    var arguments: [String: Value]
    /// The arguments that must be given, besides `document`.
    var required: [String] = []
    /// Whether the tool changes the document (saved over it, atomically).
    var changesDocument = false
    /// Whether the tool works on one document, which its `document` argument names.
    var namesDocument = true
    var run: @Sendable (ToolArguments, ToolContext) throws -> CallTool.Result

    /// The tool as `tools/list` describes it.
    var listed: Tool {
        var properties = arguments
        if namesDocument {
            properties["document"] = .object([
                "type": "string", "description": "The document's path relative to the served folder, as list_documents gives it.",
            ])
        }
        return Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(properties),
                "required": .array(((namesDocument ? ["document"] : []) + required).map { .string($0) }),
                "additionalProperties": false,
            ]),
            annotations: .init(readOnlyHint: !changesDocument, destructiveHint: false, idempotentHint: !changesDocument, openWorldHint: false))
    }

    /// The argument names the tool accepts.
    var acceptedArguments: Set<String> { Set(arguments.keys).union(namesDocument ? ["document"] : []) }
}

/// What a tool works with: the document's real path and name (empty for a tool that names
/// none), and the options of the run.
struct ToolContext: Sendable {
    /// The real path of the document the call names.
    var path: String
    /// The name the agent gave (its path relative to the folder).
    var name: String
    var documents: AgentDocuments

    var global: GlobalOptions { documents.global }

    /// The document opened for reading with the global options.
    func open() throws -> Document { try global.open(path) }

    /// The document opened for reading, when the settings and the PDF's permissions allow
    /// `features` on it.
    func open(permitting features: [SessionFeature]) throws -> Document {
        let document = try open()
        try global.checkSettings(permit: features, on: path, opened: document)
        return document
    }

    /// Opens a session on the document (settings and PDF permissions enforced), lets
    /// `change` change it and saves it over itself, atomically, one writer at a time.
    func edit<T>(_ change: (ReadingSession) throws -> T) throws -> T {
        try SaveOptions.edit(path, savingTo: nil, mode: .automatic, with: global, change)
    }
}

extension DocumentTool {
    /// The largest number of characters `get_text` returns in one call.
    static let textCharacterLimit = 200_000
    /// The most hits `search` returns in one call.
    static let searchHitLimit = 500
    /// The highest resolution `render_page` draws at (the global --max-dpi may be lower).
    static let renderDPILimit = 300.0
    /// The most annotations `list_annotations` returns in one call.
    static let annotationLimit = 5_000
    /// The most images `list_images` returns in one call.
    static let imageLimit = 5_000
    /// The largest file `get_image` returns, in bytes (before base64).
    static let imageByteLimit = 16 << 20

    static let pagesArgument: Value = .object([
        "type": "string", "description": "Pages as 1-3,7 or 5- (1-based; N is the last page). Default: all.",
    ])

    /// Every tool, in the order `tools/list` gives them.
    static let all: [DocumentTool] = [
        documents, info, text, search, renderPage, outline, listAnnotations, addAnnotation, listFormFields, fillForm, listImages, getImage,
    ]

    static let documents = DocumentTool(
        name: "list_documents", description: "The PDF documents of the served folder, by their paths relative to it.", arguments: [:],
        namesDocument: false
    ) { _, context in
        try .json(["documents": context.documents.folder.documentNames()])
    }

    static let info = DocumentTool(
        name: "document_info",
        description: "The document's facts: pages, PDF version, title, author and the other metadata, encryption, permissions, and the renderer that opened it.",
        arguments: [:]
    ) { _, context in
        let document = try context.open()
        let info = try document.info()
        return try .json(
            InfoAnswer(
                document: context.name, pages: info.pageCount, pdfVersion: info.pdfVersion, metadata: info.metadata, isEncrypted: info.isEncrypted,
                permissions: info.permissions.names, renderer: document.rendererID, firstPageSize: try document.pageInfo(pageAt: 0).size))
    }

    static let text = DocumentTool(
        name: "get_text",
        description: "The text of the chosen pages in reading order, page by page: plain, or as Markdown with headings, paragraphs, code, lists, tables and figures, from a tagged PDF's structure tree or found from the layout. Stops after about \(textCharacterLimit) characters at a page's end; `nextPage` then says where to go on. Copying: it needs the copying setting and the PDF's copy permission.",
        arguments: [
            "pages": pagesArgument,
            "format": .object([
                "type": "string", "enum": ["plain", "markdown"], "description": "plain (the default) or markdown.",
            ]),
        ]
    ) { arguments, context in
        let document = try context.open(permitting: [.copying])
        let format = try arguments.string("format", maximumLength: 16) ?? "plain"
        guard ["plain", "markdown"].contains(format) else { throw RendererError(.invalidArgument, "format must be plain or markdown") }
        var pages: [PageTextAnswer.Page] = []
        var characters = 0
        var next: Int?
        var textPages: [(index: Int, page: TextPage)] = []
        for index in try context.pageIndices(arguments, in: document) {
            if characters >= textCharacterLimit {
                next = index + 1
                break
            }
            let text: String
            if format == "markdown" {
                // Each page's tags are read on their own: a long document's content is read
                // only for the pages the answer holds.
                if let tagged = try document.taggedStructure(pages: [index]).first {
                    text = try document.structuredText(pages: [index], tagged: [tagged], inferringFrom: []).markdown
                } else {
                    let page = try document.textPage(pageAt: index)
                    textPages.append((index, page))
                    text = page.text
                }
            } else {
                text = try document.text(pageAt: index)
            }
            characters += text.count
            pages.append(.init(page: index + 1, text: text))
        }
        if format == "markdown" {
            let inferred = try document.structuredText(pages: textPages.map(\.index), tagged: [], inferringFrom: textPages)
            for page in inferred.pages {
                pages[pages.firstIndex { $0.page == page.index + 1 }!].text = StructuredText(pages: [page]).markdown
            }
        }
        let shown = pages.map { "--- page \($0.page) ---\n\($0.text)" }.joined(separator: "\n")
        return try .json(PageTextAnswer(pages: pages, nextPage: next), text: shown)
    }

    static let search = DocumentTool(
        name: "search",
        description: "Where a word or phrase occurs: each hit's page, its box in points from the page's top-left corner, and the line it is on.",
        arguments: [
            "query": .object(["type": "string", "description": "What to find."]),
            "pages": pagesArgument,
            "caseSensitive": .object(["type": "boolean"]),
            "wholeWord": .object(["type": "boolean"]),
            "limit": .object(["type": "integer", "minimum": 1, "maximum": .int(searchHitLimit), "description": "The most hits returned (default 50)."]),
        ],
        required: ["query"]
    ) { arguments, context in
        let query = try arguments.requiredString("query", maximumLength: 1000)
        let options = SearchOptions(caseSensitive: try arguments.flag("caseSensitive"), wholeWord: try arguments.flag("wholeWord"))
        let limit = try arguments.integer("limit", in: 1...searchHitLimit) ?? 50
        let document = try context.open()
        var hits: [SearchAnswer.Hit] = []
        var complete = true
        pages: for index in try context.pageIndices(arguments, in: document) {
            let found = try document.search(query, pageAt: index, options: options)
            let size = found.isEmpty ? PageSize(width: 0, height: 0) : try document.pageInfo(pageAt: index).size
            for hit in found {
                guard hits.count < limit else {
                    complete = false
                    break pages
                }
                let bounds = hit.bounds
                let line = try document.text(pageAt: index, in: PageRect(x: 0, y: bounds.origin.y, width: size.width, height: bounds.size.height))
                hits.append(.init(page: index + 1, bounds: bounds, line: line.trimmingCharacters(in: .whitespacesAndNewlines)))
            }
        }
        return try .json(SearchAnswer(hits: hits, complete: complete))
    }

    static let renderPage = DocumentTool(
        name: "render_page",
        description: "A page drawn as a PNG image, at 96 dpi unless told (at most \(Int(renderDPILimit))). An export: it needs the printing setting and the PDF's print permission.",
        arguments: [
            "page": .object(["type": "integer", "minimum": 1, "description": "The page, 1-based."]),
            "dpi": .object(["type": "number", "minimum": 1, "maximum": .double(renderDPILimit)]),
        ],
        required: ["page"]
    ) { arguments, context in
        let page = try arguments.integer("page", in: 1...Int(Int32.max))! - 1
        let dpi = try arguments.number("dpi", in: 1...renderDPILimit) ?? 96
        let global = context.global
        let session = try global.openSession(context.path)
        defer { session.close() }
        let png = try session.withPrintableDocument { document, _ in
            try document.render(pageAt: page, options: global.renderOptions(dpi: dpi)).pngData()
        }
        return CallTool.Result(content: [.image(data: png.base64EncodedString(), mimeType: "image/png", annotations: nil, _meta: nil)])
    }

    static let outline = DocumentTool(
        name: "get_outline",
        description: "The document's outline (bookmarks) as a tree: each item's title, the page it leads to (1-based) or its web address, and its children.",
        arguments: [:]
    ) { _, context in
        let document = try context.open()
        return try .json(["outline": try document.outline().map(OutlineAnswer.init)])
    }

    static let listAnnotations = DocumentTool(
        name: "list_annotations",
        description: "The annotations of the chosen pages (or all), each with its id, kind, page index (0-based), rectangle, colour, text and author.",
        arguments: ["pages": pagesArgument]
    ) { arguments, context in
        let document = try context.open()
        var annotations: [Annotation] = []
        for index in try context.pageIndices(arguments, in: document) {
            annotations += try document.annotations(pageAt: index)
            guard annotations.count <= annotationLimit else {
                throw RendererError(.limitExceeded, "more than \(annotationLimit) annotations: ask for fewer pages")
            }
        }
        return try .json(["annotations": annotations])
    }

    static let addAnnotation = DocumentTool(
        name: "add_annotation",
        description: """
            Adds an annotation to a page and saves the document. `annotation` is an object as list_annotations gives them, without \
            id and pageIndex: kind (\(AnnotationKind.creatable.map(\.rawValue).joined(separator: ", "))), rect {"origin": {"x", "y"}, "size": \
            {"width", "height"}} in points from the page's top-left corner, and as the kind needs quads, inkPaths or points; color {red, green, blue, alpha} \
            from 0 to 1, contents, subject. The author is the one this server was started with. Needs the annotations setting \
            and the PDF's annotate permission.
            """,
        arguments: [
            "page": .object(["type": "integer", "minimum": 1, "description": "The page, 1-based."]),
            "annotation": .object(["type": "object", "description": "The annotation, as list_annotations gives one."]),
        ],
        required: ["page", "annotation"],
        changesDocument: true
    ) { arguments, context in
        let page = try arguments.integer("page", in: 1...Int(Int32.max))! - 1
        guard var annotation = try arguments.decoded("annotation", as: NewAnnotation.self)?.annotation(onPageAt: page) else {
            throw RendererError(.invalidArgument, "annotation is required")
        }
        annotation.author = context.documents.author
        let added = try context.edit { try $0.addAnnotation(annotation) }
        return try .json(["annotation": added])
    }

    static let listFormFields = DocumentTool(
        name: "list_form_fields",
        description: "The form's fields: each one's full name, kind, value, options and flags.",
        arguments: [:]
    ) { _, context in
        try .json(["fields": try context.open().formFields()])
    }

    static let fillForm = DocumentTool(
        name: "fill_form",
        description: "Fills form fields and saves the document: `values` maps a field's full name to its text, a button's state, or a choice's value (a list for several). Needs the formFilling setting and the PDF's fill-forms permission.",
        arguments: ["values": .object(["type": "object", "description": "Field name to value (a string, or a list of strings)."])],
        required: ["values"],
        changesDocument: true
    ) { arguments, context in
        guard let values = try arguments.decoded("values", as: [String: FormValue].self) else { throw RendererError(.invalidArgument, "values is required") }
        let changed = try context.edit { try $0.fillForm(values.mapValues(\.values)) }
        return try .json(["changed": changed])
    }
}

extension DocumentTool {
    static let listImages = DocumentTool(
        name: "list_images",
        description: "The images the chosen pages (or all) draw, as pdfimages -list gives them: page index (0-based), number (for get_image), role (image, stencil, mask, smask), size, colour space, components, bits, encoding, object.",
        arguments: ["pages": pagesArgument]
    ) { arguments, context in
        let document = try context.open()
        let pages = Set(try context.pageIndices(arguments, in: document))
        let images = try document.images().filter { pages.contains($0.pageIndex) }
        guard images.count <= imageLimit else { throw RendererError(.limitExceeded, "more than \(imageLimit) images: ask for fewer pages") }
        return try .json(["images": images])
    }

    static let getImage = DocumentTool(
        name: "get_image",
        description: "One image, by its number in list_images: a JPEG or JPEG 2000 image as the PDF stores it, any other as a PNG made gray or RGB (at most \(imageByteLimit >> 20) MB). Copying: it needs the copying setting and the PDF's copy permission.",
        arguments: ["number": .object(["type": "integer", "minimum": 0, "description": "The image's number, as list_images gives it."])],
        required: ["number"]
    ) { arguments, context in
        let number = try arguments.integer("number", in: 0...Int(Int32.max))!
        let document = try context.open(permitting: [.copying])
        let images = try document.images()
        guard images.indices.contains(number) else {
            throw RendererError(.invalidArgument, "image \(number) does not exist; the pages draw \(images.count) (numbered from 0)")
        }
        let file = try document.imageFile(images[number])
        guard file.data.count <= imageByteLimit else {
            throw RendererError(.limitExceeded, "image \(number) is \(file.data.count) bytes as a file; get_image gives at most \(imageByteLimit)")
        }
        return CallTool.Result(content: [.image(data: file.data.base64EncodedString(), mimeType: file.format.mediaType, annotations: nil, _meta: nil)])
    }
}

extension ToolContext {
    /// The pages the `pages` argument chooses, all when it is not given.
    func pageIndices(_ arguments: ToolArguments, in document: Document) throws -> [Int] {
        guard let pages = try arguments.string("pages", maximumLength: 1000) else { return Array(0..<document.pageCount) }
        return try PageSelection(text: pages).indices(pageCount: document.pageCount)
    }
}

/// What `document_info` answers.
private struct InfoAnswer: Encodable {
    var document: String
    var pages: Int
    var pdfVersion: String
    var metadata: DocumentMetadata
    var isEncrypted: Bool
    var permissions: [String]
    var renderer: String
    var firstPageSize: PageSize
}

/// What `get_text` answers.
private struct PageTextAnswer: Encodable {
    struct Page: Encodable {
        var page: Int
        var text: String
    }
    var pages: [Page]
    /// The page to ask for next when the answer stopped at its limit.
    var nextPage: Int?
}

/// What `search` answers.
private struct SearchAnswer: Encodable {
    struct Hit: Encodable {
        var page: Int
        /// In points from the page's top-left corner.
        var bounds: PageRect
        var line: String
    }
    var hits: [Hit]
    /// False when there were more hits than the limit.
    var complete: Bool
}

/// An outline item with its page 1-based, as an agent reads pages.
private struct OutlineAnswer: Encodable {
    var title: String
    var page: Int?
    var uri: String?
    var children: [OutlineAnswer]

    init(_ item: OutlineItem) {
        title = item.title
        switch item.destination {
        case .page(let index, _, _): page = index + 1
        case .uri(let address): uri = address
        case nil: break
        }
        children = item.children.map(OutlineAnswer.init)
    }
}

/// An annotation as `add_annotation` takes it: the fields of ``Annotation``'s JSON but its
/// id, page and author, which the tool sets.
private struct NewAnnotation: Decodable {
    var json: [String: Value]

    init(from decoder: any Decoder) throws {
        json = try decoder.singleValueContainer().decode([String: Value].self)
        for key in ["id", "pageIndex", "author"] where json[key] != nil {
            throw RendererError(.invalidArgument, "annotation: \(key) is set by the tool, not given")
        }
    }

    func annotation(onPageAt index: Int) throws -> Annotation {
        var fields = json
        fields["pageIndex"] = .int(index)
        do {
            return try JSONDecoder.agentArguments.decode(Annotation.self, from: JSONEncoder().encode(fields))
        } catch let error as DecodingError {
            throw RendererError(.invalidArgument, "annotation: \(error.summary)")
        }
    }
}

/// A form value: one string, or a list of them for a choice of several.
private struct FormValue: Decodable {
    var values: [String]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let one = try? container.decode(String.self) {
            values = [one]
        } else {
            values = try container.decode([String].self)
        }
    }
}

extension CallTool.Result {
    /// `value` as the tool's structured answer, and as JSON text (or `text`) for clients that
    /// read only text.
    static func json(_ value: some Encodable, text: String? = nil) throws -> CallTool.Result {
        let data = try JSONOutput.data(value, pretty: false)
        return try CallTool.Result(
            content: [.text(text: text ?? String(decoding: data, as: UTF8.self), annotations: nil, _meta: nil)],
            structuredContent: try JSONDecoder().decode(Value.self, from: data))
    }
}
