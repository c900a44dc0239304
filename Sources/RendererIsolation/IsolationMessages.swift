import RendererProvider

/// What the calling process asks of its engine process, one request at a time.
enum IsolationRequest: Codable, Sendable {
    /// Opens the document; the first request of every engine process. `memoryBytes` caps
    /// the engine process's address space.
    case open(path: String, password: String?, backend: String, needing: Set<Capability>, cacheBytes: Int, memoryBytes: Int?)
    case info
    case pageInfos
    /// Draws a page: into a bitmap sent back after the reply, or, with `file`, into an
    /// image file the engine process writes.
    case render(page: Int, options: RenderOptions, file: ImageFile?)
    case text(page: Int)
    case textPage(page: Int)
    case pageInfo(page: Int)
    case links(page: Int)
    case outline
    case annotations(page: Int)

    struct ImageFile: Codable, Sendable {
        var format: ImageFileFormat
        var path: String
    }

    /// The page the request works on, if it works on one.
    var page: Int? {
        switch self {
        case .render(let page, _, _), .text(let page), .textPage(let page), .pageInfo(let page), .links(let page), .annotations(let page): page
        case .open, .info, .pageInfos, .outline: nil
        }
    }

    /// What the request does, for messages: "open the document", "draw page 3".
    var action: String {
        switch self {
        case .open: "open the document"
        case .info: "read the document's information"
        case .pageInfos: "read the pages' sizes"
        case .render(let page, _, _): "draw page \(page + 1)"
        case .text(let page), .textPage(let page): "read the text of page \(page + 1)"
        case .pageInfo(let page): "read the size of page \(page + 1)"
        case .links(let page): "read the links of page \(page + 1)"
        case .outline: "read the outline"
        case .annotations(let page): "read the annotations of page \(page + 1)"
        }
    }
}

/// The engine process's answer to one request.
enum IsolationReply: Codable, Sendable {
    case opened(Opened)
    case info(DocumentInfo)
    case pageInfos([PageInfo])
    /// A rendered page; unless it went to a file, `height x stride` bytes of pixels follow.
    case rendered(width: Int, height: Int, stride: Int, format: PixelFormat)
    case text(String)
    case textPage(TextPage)
    case pageInfo(PageInfo)
    case links([Link])
    case outline([OutlineItem])
    case annotations([Annotation])
    case failed(WireError)

    struct Opened: Codable, Sendable {
        var pageCount: Int
        var backend: String
        var engineName: String
        var engineVersion: String
    }
}

/// A `RendererError` as it crosses between the processes.
struct WireError: Codable, Sendable {
    var code: RendererError.Code
    var message: String
    var backend: String?
    var engineMessage: String?

    init(_ error: RendererError) {
        (code, message, backend, engineMessage) = (error.code, error.message, error.backend, error.engineMessage)
    }

    var error: RendererError { RendererError(code, message, backend: backend, engineMessage: engineMessage) }
}
