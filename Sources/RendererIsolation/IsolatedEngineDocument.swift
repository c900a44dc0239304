#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// A document an engine process holds, seen from the calling process: each method sends
/// its ``EngineCall`` through the connection. Confined by its `Document`, as every engine
/// document is. It conforms to every document capability protocol, so that a requirement
/// added to one does not compile until it is forwarded; the engine process answers
/// `unsupported` for what its engine does not do.
final class IsolatedEngineDocument:
    MetadataWriting, OutlineWriting, LinkWriting, StructureReading, ContentReading, AttachmentWriting, OptionalContentControl,
    ProtectedSaving, SignatureReading, DocumentSigning, FormFilling, FormFlattening, PageEditing, PageMerging, Reflowing
{
    let connection: EngineConnection
    private(set) var pageCount: Int
    let contentType: ContentType
    let canSaveIncrementally: Bool

    /// Opens the document in a first engine process.
    init(connection: EngineConnection) throws {
        self.connection = connection
        let opened = try connection.start()
        (pageCount, contentType, canSaveIncrementally) = (opened.pageCount, opened.contentType, opened.canSaveIncrementally)
    }

    func info() throws -> DocumentInfo { try connection.call(.info) }
    func outline() throws -> [OutlineItem] { try connection.call(.outline) }
    func structureTree(pages: [Int]) throws -> [StructureElement]? { try connection.call(.structureTree(pages)) }
    func namedDestination(_ name: String) throws -> Destination? { try connection.call(.namedDestination(name)) }
    func fonts() throws -> [FontInfo] { try connection.call(.fonts) }
    func images() throws -> [DocumentImage] { try connection.call(.images) }
    func images(pages: [Int]) throws -> [DocumentImage] { try connection.call(.imagesOfPages(pages)) }
    func drawing(pages: [Int]) throws -> PageDrawing { try connection.call(.drawingOfPages(pages)) }
    func imageContents(_ image: DocumentImage) throws -> ImageContents { try connection.call(.imageContents(image)) }
    func attachments() throws -> [Attachment] { try connection.call(.attachments) }
    func attachmentContents(at index: Int) throws -> Data { try connection.call(.attachmentContents(index)) }

    func addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?) throws {
        try connection.call(.addAttachment(name: name, contents: contents, description: description, modificationDate: modificationDate), returning: Done.self)
    }

    func removeAttachment(at index: Int) throws {
        try connection.call(.removeAttachment(index), returning: Done.self)
    }
    func optionalContentGroups() throws -> [OptionalContentGroup] { try connection.call(.optionalContentGroups) }
    func optionalContentConfigurations() throws -> [OptionalContentConfiguration] { try connection.call(.optionalContentConfigurations) }
    func setOptionalContentStates(_ states: [Bool]) throws { try connection.call(.setOptionalContentStates(states), returning: Done.self) }
    func replaceOutline(with items: [OutlineItem]) throws -> OutlineEditReport { try connection.call(.replaceOutline(items)) }
    func addLink(_ link: Link, pageAt index: Int) throws { try connection.call(.addLink(page: index, link), returning: Done.self) }
    func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int { try connection.call(.removeLinks(page: index, area: area)) }
    func prepareSignatureUpdate(_ request: SignatureUpdateRequest, of file: Data) throws -> PreparedSignatureUpdate {
        try connection.call(.prepareSignatureUpdate(request, file: file))
    }
    func prepareValidationDataUpdate(_ data: ValidationData, of file: Data) throws -> Data {
        try connection.call(.prepareValidationDataUpdate(data, file: file))
    }
    func validationData() throws -> ValidationData { try connection.call(.validationData) }
    /// Every page's facts in one call, not one call per page.
    func pageInfos() throws -> [PageInfo] { try connection.call(.pageInfos) }

    func loadPage(at index: Int) throws -> any EnginePage {
        IsolatedEnginePage(connection: connection, index: index)
    }

    func write(to path: String, incremental: Bool) throws {
        try connection.call(.write(path: path, incremental: incremental), returning: Done.self)
    }

    func write(to path: String, protection: PasswordProtection?) throws {
        try connection.call(.writeProtected(path: path, protection: protection), returning: Done.self)
    }

    /// The engine process writes into memory and sends the bytes, which go to `handle` here
    /// in pieces of 1 MiB.
    func write(into handle: any FileWriteHandle, incremental: Bool) throws {
        try connection.call(.written(incremental: incremental), cancellation: nil) { channel, deadline in
            var left = try channel.receive(Int.self, before: deadline)
            var piece = [UInt8](repeating: 0, count: min(max(left, 0), 1 << 20))
            while left > 0 {
                let count = min(left, piece.count)
                try piece.withUnsafeMutableBytes { try channel.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]), before: deadline) }
                try piece.withUnsafeBytes { try handle.write(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                left -= count
            }
        }
    }

    func xmpPacket() throws -> Data? { try connection.call(.xmpPacket) }

    func documentActions() throws -> DocumentActions { try connection.call(.documentActions) }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        try connection.call(.setMetadata(metadata, xmpPacket: xmpPacket), returning: Done.self)
    }

    func signatureFields() throws -> [SignatureField] { try connection.call(.signatureFields) }
    func formFields() throws -> [FormField] { try connection.call(.formFields) }
    func xfaFacts() throws -> XFAFacts { try connection.call(.xfaFacts) }

    func setFormField(_ field: FormField, values: [String]) throws {
        try connection.call(.setFormField(field, values: values), returning: Done.self)
    }

    func flattenForm() throws {
        try connection.call(.flattenForm, returning: Done.self)
    }

    func insertBlankPage(at index: Int, size: PageSize) throws {
        try changingPages { try connection.call(.insertBlankPage(at: index, size: size), returning: Done.self) }
    }

    func deletePages(_ indices: [Int]) throws -> PageEditReport {
        try changingPages { try connection.call(.deletePages(indices)) }
    }

    func movePage(from: Int, to: Int) throws {
        try connection.call(.movePage(from: from, to: to), returning: Done.self)
    }

    func rotatePage(at index: Int, to rotation: PageRotation) throws {
        try connection.call(.rotatePage(at: index, to: rotation), returning: Done.self)
    }

    func addTextLayers(_ layers: [Int: TextPage]) throws {
        try connection.call(.addTextLayers(layers), returning: Done.self)
    }

    func addPageOverlays(_ overlays: PageOverlays) throws {
        try connection.call(.addPageOverlays(overlays), returning: Done.self)
    }

    func insertPages(from data: Data, password: String?, pages: [Int], at index: Int) throws -> PageEditReport {
        try changingPages { try connection.call(.insertPages(from: data, password: password, pages: pages, at: index)) }
    }

    func layout(pageSize: PageSize, fontSize: Double) throws {
        try changingPages { try connection.call(.layout(pageSize: pageSize, fontSize: fontSize), returning: Done.self) }
    }

    /// Runs a call that may change the number of pages, then reads the number again (also
    /// when the call failed part-way).
    @discardableResult
    private func changingPages<T>(_ body: () throws -> T) throws -> T {
        defer { if let count = try? connection.call(.pageCount, returning: Int.self) { pageCount = count } }
        return try body()
    }
}

/// A page of an ``IsolatedEngineDocument``: its index, and the connection its calls go
/// through. Like its document, it conforms to every page capability protocol.
final class IsolatedEnginePage: LinkReading, AnnotationWriting, ImageStamping, Redacting {
    private let connection: EngineConnection
    private let index: Int

    init(connection: EngineConnection, index: Int) {
        self.connection = connection
        self.index = index
    }

    func info() throws -> PageInfo { try connection.call(.pageInfo(page: index)) }
    func plainText() throws -> String { try connection.call(.plainText(page: index)) }
    func textPage() throws -> TextPage { try connection.call(.textPage(page: index)) }
    func links() throws -> [Link] { try connection.call(.links(page: index)) }
    func pageSpace() throws -> PageSpace { try connection.call(.pageSpace(page: index)) }
    func annotations() throws -> [Annotation] { try connection.call(.annotations(page: index)) }

    /// The engine process draws into memory of its own and sends the pixels, read here
    /// straight into `pixels`. Cancelling stops the engine process.
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        try connection.call(.render(page: index, area: area, options: options, byteCount: pixels.count), cancellation: cancellation) { channel, deadline in
            try channel.read(into: UnsafeMutableRawBufferPointer(pixels), before: deadline)
        }
    }

    func addAnnotation(_ annotation: Annotation) throws -> Annotation {
        try connection.call(.addAnnotation(page: index, annotation))
    }

    func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation {
        try connection.call(.addImageStamp(page: index, annotation, image))
    }

    func updateAnnotation(_ annotation: Annotation) throws -> Annotation {
        try connection.call(.updateAnnotation(page: index, annotation))
    }

    func removeAnnotation(id: String) throws {
        try connection.call(.removeAnnotation(page: index, id: id), returning: Done.self)
    }

    func applyRedactions(blackBoxes: Bool) throws -> Bool {
        try connection.call(.applyRedactions(page: index, blackBoxes: blackBoxes))
    }
}
