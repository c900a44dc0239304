#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// What the calling process asks of its engine process, one request at a time: to describe
/// its renderers, or to open the document (the first request of an engine process that
/// serves one), then calls on it.
enum IsolationRequest: Codable, Sendable {
    case describe
    case open(Opening)
    case call(EngineCall)
    /// A new PDF of pictures, written by the renderer named to a path; the engine process
    /// then ends.
    case writePictures(Pictures)

    /// What ``PictureWriting/writePDF(fromPictures:layout:to:)`` is asked, and the bound the
    /// engine process writes it within.
    struct Pictures: Codable, Sendable {
        var rendererID: String
        var pictures: [Data]
        var layout: ImagePageLayout
        var path: String
        var memoryBytes: Int?
    }

    /// What the engine process opens, and the bounds it opens it within.
    struct Opening: Codable, Sendable {
        /// The id of the renderer that opens the document in the engine process.
        var rendererID: String
        var source: Source
        var password: String?
        var cacheBytes: Int
        /// Caps the engine process's address space.
        var memoryBytes: Int?
    }

    /// A document source that can cross to another process: a file's path, or the bytes.
    enum Source: Codable, Sendable {
        case file(String)
        case memory(Data)

        var documentSource: DocumentSource {
            switch self {
            case .file(let path): .file(path)
            case .memory(let data): .memory(data)
            }
        }
    }
}

/// The table of operations: one case for each method of `EngineDocument` and `EnginePage`,
/// which the engine process answers by calling that method on the document it opened. A
/// page's calls carry the page's index. ``IsolatedEngineDocument`` and its pages send them;
/// ``IsolationWorker`` answers them.
enum EngineCall: Codable, Sendable {
    // The document's.
    case pageCount
    case info
    case outline
    case structureTree([Int])
    case namedDestination(String)
    case fonts
    case images
    case imagesOfPages([Int])
    case drawingOfPages([Int])
    case imageContents(DocumentImage)
    case attachments
    case attachmentContents(Int)
    case addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?)
    case removeAttachment(Int)
    case optionalContentGroups
    case optionalContentConfigurations
    case setOptionalContentStates([Bool])
    case replaceOutline([OutlineItem])
    case addLink(page: Int, Link)
    case removeLinks(page: Int, area: PageRect)
    case pageInfos
    case write(path: String, incremental: Bool)
    /// A whole file with new password protection or none; the passwords travel over the
    /// socket, never on a command line.
    case writeProtected(path: String, protection: PasswordProtection?)
    /// The bytes `write(into:incremental:)` would write, sent after the reply.
    case written(incremental: Bool)
    case xmpPacket
    case documentActions
    case setMetadata(DocumentMetadata, xmpPacket: Data?)
    case signatureFields
    case prepareSignatureUpdate(SignatureUpdateRequest, file: Data)
    case prepareValidationDataUpdate(ValidationData, file: Data)
    case validationData
    case formFields
    case xfaFacts
    case setFormField(FormField, values: [String])
    case flattenForm
    case insertBlankPage(at: Int, size: PageSize)
    case deletePages([Int])
    case movePage(from: Int, to: Int)
    case rotatePage(at: Int, to: PageRotation)
    case addTextLayers([Int: TextPage])
    case addPageOverlays(PageOverlays)
    case insertPages(from: Data, password: String?, pages: [Int], at: Int)
    case layout(pageSize: PageSize, fontSize: Double)
    // A page's.
    case pageInfo(page: Int)
    case plainText(page: Int)
    case textPage(page: Int)
    case links(page: Int)
    /// Draws `area` into `byteCount` bytes of pixels, sent after the reply.
    case render(page: Int, area: PixelRect, options: RenderOptions, byteCount: Int)
    case pageSpace(page: Int)
    case annotations(page: Int)
    case addAnnotation(page: Int, Annotation)
    case addImageStamp(page: Int, Annotation, StampImage)
    case updateAnnotation(page: Int, Annotation)
    case removeAnnotation(page: Int, id: String)
    case applyRedactions(page: Int, blackBoxes: Bool)

    /// The page the call works on, if it works on one.
    var page: Int? {
        switch self {
        case .pageInfo(let page), .plainText(let page), .textPage(let page), .links(let page), .render(let page, _, _, _),
            .pageSpace(let page), .annotations(let page), .addAnnotation(let page, _), .addImageStamp(let page, _, _), .updateAnnotation(let page, _),
            .removeAnnotation(let page, _), .applyRedactions(let page, _):
            page
        default: nil
        }
    }

    /// Whether the call changes the document: its changes live only in the engine process
    /// until a save, so they are lost if that process ends.
    var changesDocument: Bool {
        switch self {
        case .setMetadata, .setFormField, .flattenForm, .insertBlankPage, .deletePages, .movePage, .rotatePage, .addTextLayers, .addPageOverlays, .insertPages,
            .addAnnotation, .addImageStamp, .updateAnnotation, .removeAnnotation, .applyRedactions, .addAttachment, .removeAttachment,
            .replaceOutline, .addLink, .removeLinks:
            true
        default: false
        }
    }

    /// What the call does, for messages: "read the outline", "draw page 3".
    var action: String {
        if let page {
            switch self {
            case .render: return "draw page \(page + 1)"
            case .plainText, .textPage: return "read the text of page \(page + 1)"
            case .links: return "read the links of page \(page + 1)"
            case .annotations: return "read the annotations of page \(page + 1)"
            case .addAnnotation, .addImageStamp, .updateAnnotation, .removeAnnotation, .applyRedactions: return "change page \(page + 1)"
            default: return "read page \(page + 1)"
            }
        }
        switch self {
        case .pageCount, .info: return "read the document's information"
        case .pageInfos: return "read the pages' sizes"
        case .outline: return "read the outline"
        case .structureTree: return "read the structure tree"
        case .namedDestination: return "find a named destination"
        case .fonts: return "list the fonts"
        case .images, .imagesOfPages, .imageContents: return "read the images"
        case .drawingOfPages: return "read what the pages draw with paths"
        case .attachments, .attachmentContents: return "read the attachments"
        case .optionalContentGroups, .optionalContentConfigurations: return "list the optional content"
        case .setOptionalContentStates: return "show and hide optional content"
        case .write, .written, .writeProtected: return "save the document"
        case .xmpPacket, .documentActions, .signatureFields, .formFields, .xfaFacts, .validationData: return "read the document"
        case .prepareSignatureUpdate: return "lay a signature into the document"
        case .prepareValidationDataUpdate: return "add validation data to the document"
        case .layout: return "lay the document out"
        default: return "change the document"
        }
    }
}

/// The engine process's answer to one request. After `value`, the call's result follows as
/// a message of its own (or, for `render` and `written`, as raw bytes).
enum IsolationReply: Codable, Sendable {
    /// The first message of every engine process: it has started and loaded its engines.
    case ready
    case described([EngineDescription])
    case opened(Opened)
    /// The pages of a PDF of pictures written.
    case wrotePictures(Int)
    case value
    case failed(WireError)

    /// What the calling process needs to know of a document the engine process opened.
    struct Opened: Codable, Sendable {
        var pageCount: Int
        var contentType: ContentType
        var canSaveIncrementally: Bool
    }
}

/// What the calling process knows of a renderer of the engine process, which it need not
/// link: its names, what it opens and can do, and its annotation support.
struct EngineDescription: Codable, Sendable {
    var id: String
    var engineName: String
    var engineVersion: String
    var contentTypes: Set<ContentType>
    var capabilities: Set<Capability>
    /// ``capabilities`` for each content type, by its raw value.
    var capabilitiesByType: [String: Set<Capability>]
    var annotationSupport: AnnotationSupport
    var isChosenByAuto: Bool
    /// Whether the renderer writes PDFs of pictures (`PictureWriting`).
    var writesPictures: Bool

    init(_ renderer: any Renderer) {
        (id, engineName, engineVersion) = (renderer.id, renderer.engineName, renderer.engineVersion)
        writesPictures = (renderer as? any PictureWriting)?.writesPictures ?? false
        (contentTypes, capabilities, annotationSupport) = (renderer.contentTypes, renderer.capabilities, renderer.annotationSupport)
        isChosenByAuto = renderer.isChosenByAuto
        capabilitiesByType = Dictionary(uniqueKeysWithValues: renderer.contentTypes.map { ($0.rawValue, renderer.capabilities(for: $0)) })
    }
}

/// The result of a call that returns nothing.
struct Done: Codable, Sendable {}

/// A `RendererError` as it crosses between the processes.
struct WireError: Codable, Sendable {
    var code: RendererError.Code
    var message: String
    var backend: String?
    var engineMessage: String?

    init(_ error: RendererError) {
        (code, message, backend, engineMessage) = (error.code, error.message, error.rendererID, error.engineMessage)
    }

    var error: RendererError { RendererError(code, message, rendererID: backend, engineMessage: engineMessage) }
}
