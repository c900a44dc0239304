#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// The engine process's side of isolation: a program started by ``IsolatedRenderer`` calls
/// `serve(registry:beforePage:)` and does nothing else.
public enum IsolationWorker {
    /// Answers the requests that arrive on standard input, on standard output, with the
    /// renderers of `registry`, until the calling process closes the socket; then returns.
    /// Ends the process when the calling process ends, even in the middle of an engine call.
    /// Anything else written to standard output while serving goes to standard error.
    /// `beforePage`, if given, is called with a page's index before each call about a page
    /// (a test uses it to make the engine process crash on a chosen page).
    public static func serve(registry: RendererRegistry, beforePage: ((Int) -> Void)? = nil) {
        ProcessLimits.endWithParent()
        let replies = dup(1)
        dup2(2, 1)
        let input = MessageChannel(descriptor: 0), output = MessageChannel(descriptor: replies)
        var document: WorkerDocument?
        guard (try? output.send(IsolationReply.ready)) != nil else { return }
        while let request = try? input.receive(IsolationRequest.self, before: nil) {
            do {
                switch request {
                case .describe:
                    try output.send(IsolationReply.described(registry.renderers.map(EngineDescription.init)))
                case .open(let opening):
                    document = nil
                    let opened = try WorkerDocument(opening, registry: registry)
                    document = opened
                    try output.send(IsolationReply.opened(opened.facts))
                case .writePictures(let request):
                    if let memoryBytes = request.memoryBytes { ProcessLimits.limitAddressSpace(to: memoryBytes) }
                    guard let writer = try registry.renderer(id: request.rendererID) as? any PictureWriting, writer.writesPictures else {
                        throw RendererError(.unsupported, "\(request.rendererID) does not write PDFs from pictures", rendererID: request.rendererID)
                    }
                    let pages = try writer.writePDF(fromPictures: request.pictures, layout: request.layout, to: request.path)
                    try output.send(IsolationReply.wrotePictures(pages))
                case .call(let call):
                    guard let document else { throw RendererError(.invalidArgument, "no document is open in the engine process") }
                    if let page = call.page { beforePage?(page) }
                    try document.answer(call, on: output)
                }
            } catch is MessageChannel.Interruption {
                return
            } catch {
                let wire = WireError(error as? RendererError ?? RendererError(.engineFailure, "the engine process failed: \(error)"))
                guard (try? output.send(IsolationReply.failed(wire))) != nil else { return }
            }
        }
    }

    /// Whether this program was built with AddressSanitizer or ThreadSanitizer, under which
    /// the engine process's address space is not capped.
    public static var runsUnderSanitizer: Bool { ProcessLimits.runsUnderSanitizer }
}

/// The document an engine process opened, and the page it loaded last (most calls come in
/// runs on one page: its facts, then its pixels).
private final class WorkerDocument {
    private let document: any EngineDocument
    private var loaded: (index: Int, page: any EnginePage)?
    /// The pixels of the last page drawn, reused for the next.
    private var pixels: [UInt8] = []

    init(_ opening: IsolationRequest.Opening, registry: RendererRegistry) throws {
        // An engine that would exhaust the machine's memory sees its allocations fail instead.
        if let memoryBytes = opening.memoryBytes { ProcessLimits.limitAddressSpace(to: memoryBytes) }
        let renderer = try registry.renderer(id: opening.rendererID)
        document = try renderer.openDocument(
            opening.source.documentSource, password: opening.password, limits: DocumentLimits(cacheBytes: opening.cacheBytes))
    }

    var facts: IsolationReply.Opened {
        IsolationReply.Opened(pageCount: document.pageCount, contentType: document.contentType, canSaveIncrementally: (document as? any DocumentSaving)?.canSaveIncrementally ?? false)
    }

    /// Answers `call` by calling the method it names, on `output`.
    func answer(_ call: EngineCall, on output: MessageChannel) throws {
        func reply(_ value: some Encodable) throws {
            try output.send(IsolationReply.value)
            try output.send(value)
        }
        // Pages loaded before a change to the document may no longer be its pages.
        if call.page == nil { loaded = nil }
        switch call {
        case .pageCount: try reply(document.pageCount)
        case .info: try reply(try document.capability(MetadataReading.self).info())
        case .outline: try reply(try document.capability(OutlineReading.self).outline())
        case .structureTree(let pages): try reply(try document.capability(StructureReading.self).structureTree(pages: pages))
        case .namedDestination(let name): try reply(try document.capability(OutlineReading.self).namedDestination(name))
        case .fonts: try reply(try document.capability(ContentReading.self).fonts())
        case .images: try reply(try document.capability(ContentReading.self).images())
        case .imagesOfPages(let pages): try reply(try document.capability(ContentReading.self).images(pages: pages))
        case .drawingOfPages(let pages): try reply(try document.capability(ContentReading.self).drawing(pages: pages))
        case .imageContents(let image): try reply(try document.capability(ContentReading.self).imageContents(image))
        case .attachments: try reply(try document.capability(AttachmentReading.self).attachments())
        case .attachmentContents(let index): try reply(try document.capability(AttachmentReading.self).attachmentContents(at: index))
        case .addAttachment(let name, let contents, let description, let modificationDate):
            try document.capability(AttachmentWriting.self).addAttachment(name: name, contents: contents, description: description, modificationDate: modificationDate)
            try reply(Done())
        case .removeAttachment(let index):
            try document.capability(AttachmentWriting.self).removeAttachment(at: index)
            try reply(Done())
        case .optionalContentGroups: try reply(try document.capability(OptionalContentControl.self).optionalContentGroups())
        case .optionalContentConfigurations: try reply(try document.capability(OptionalContentControl.self).optionalContentConfigurations())
        case .setOptionalContentStates(let states):
            try document.capability(OptionalContentControl.self).setOptionalContentStates(states)
            try reply(Done())
        case .replaceOutline(let items): try reply(try document.capability(OutlineWriting.self).replaceOutline(with: items))
        case .addLink(let page, let link):
            try document.capability(LinkWriting.self).addLink(link, pageAt: page)
            try reply(Done())
        case .removeLinks(let page, let area): try reply(try document.capability(LinkWriting.self).removeLinks(in: area, pageAt: page))
        case .pageInfos: try reply(try document.pageInfos())
        case .prepareSignatureUpdate(let request, let file): try reply(try document.capability(DocumentSigning.self).prepareSignatureUpdate(request, of: file))
        case .prepareValidationDataUpdate(let data, let file): try reply(try document.capability(DocumentSigning.self).prepareValidationDataUpdate(data, of: file))
        case .validationData: try reply(try document.capability(DocumentSigning.self).validationData())
        case .write(let path, let incremental):
            try document.capability(DocumentSaving.self).write(to: path, incremental: incremental)
            try reply(Done())
        case .writeProtected(let path, let protection):
            try document.capability(ProtectedSaving.self).write(to: path, protection: protection)
            try reply(Done())
        case .written(let incremental):
            let bytes = MemoryWriteHandle()
            try document.capability(DocumentSaving.self).write(into: bytes, incremental: incremental)
            try reply(bytes.data.count)
            try bytes.data.withUnsafeBytes { try output.send(raw: $0) }
        case .xmpPacket: try reply(try document.capability(MetadataReading.self).xmpPacket())
        case .documentActions: try reply(try document.capability(MetadataReading.self).documentActions())
        case .setMetadata(let metadata, let packet):
            try document.capability(MetadataWriting.self).setMetadata(metadata, xmpPacket: packet)
            try reply(Done())
        case .signatureFields: try reply(try document.capability(SignatureReading.self).signatureFields())
        case .formFields: try reply(try document.capability(FormReading.self).formFields())
        case .xfaFacts: try reply(try document.capability(FormReading.self).xfaFacts())
        case .setFormField(let field, let values):
            try document.capability(FormFilling.self).setFormField(field, values: values)
            try reply(Done())
        case .flattenForm:
            try document.capability(FormFlattening.self).flattenForm()
            try reply(Done())
        case .insertBlankPage(let index, let size):
            try document.capability(PageEditing.self).insertBlankPage(at: index, size: size)
            try reply(Done())
        case .deletePages(let indices): try reply(try document.capability(PageEditing.self).deletePages(indices))
        case .movePage(let from, let to):
            try document.capability(PageEditing.self).movePage(from: from, to: to)
            try reply(Done())
        case .rotatePage(let index, let rotation):
            try document.capability(PageEditing.self).rotatePage(at: index, to: rotation)
            try reply(Done())
        case .addTextLayers(let layers):
            try document.capability(PageEditing.self).addTextLayers(layers)
            try reply(Done())
        case .addPageOverlays(let overlays):
            try document.capability(PageEditing.self).addPageOverlays(overlays)
            try reply(Done())
        case .insertPages(let data, let password, let pages, let index):
            try reply(try document.capability(PageMerging.self).insertPages(from: data, password: password, pages: pages, at: index))
        case .layout(let size, let fontSize):
            try document.capability(Reflowing.self).layout(pageSize: size, fontSize: fontSize)
            try reply(Done())
        case .pageInfo(let index): try reply(try page(index).info())
        case .plainText(let index): try reply(try page(index).plainText())
        case .textPage(let index): try reply(try page(index).textPage())
        case .links(let index): try reply(try page(index).capability(LinkReading.self).links())
        case .render(let index, let area, let options, let byteCount):
            let page = try page(index)
            if pixels.count < byteCount { pixels = [UInt8](repeating: 0, count: byteCount) }
            try pixels.withUnsafeMutableBufferPointer { buffer in
                try page.render(area, options: options, into: UnsafeMutableBufferPointer(rebasing: buffer[..<byteCount]), cancellation: nil)
            }
            try output.send(IsolationReply.value)
            try pixels.withUnsafeBytes { try output.send(raw: UnsafeRawBufferPointer(rebasing: $0[..<byteCount])) }
        case .pageSpace(let index): try reply(try page(index).pageSpace())
        case .annotations(let index): try reply(try page(index).capability(AnnotationReading.self).annotations())
        case .addAnnotation(let index, let annotation): try reply(try page(index).capability(AnnotationWriting.self).addAnnotation(annotation))
        case .addImageStamp(let index, let annotation, let image): try reply(try page(index).capability(ImageStamping.self).addImageStamp(annotation, image: image))
        case .updateAnnotation(let index, let annotation): try reply(try page(index).capability(AnnotationWriting.self).updateAnnotation(annotation))
        case .removeAnnotation(let index, let id):
            try page(index).capability(AnnotationWriting.self).removeAnnotation(id: id)
            try reply(Done())
        case .applyRedactions(let index, let blackBoxes): try reply(try page(index).capability(Redacting.self).applyRedactions(blackBoxes: blackBoxes))
        }
    }

    /// Page `index`, loaded once for a run of calls on it.
    private func page(_ index: Int) throws -> any EnginePage {
        guard (0..<document.pageCount).contains(index) else {
            throw RendererError(.pageOutOfRange, "page index \(index) is out of range: the document has \(document.pageCount) pages")
        }
        if let loaded, loaded.index == index { return loaded.page }
        let page = try document.loadPage(at: index)
        loaded = (index, page)
        return page
    }
}

/// The bytes a document writes, kept in memory to be sent to the calling process.
private final class MemoryWriteHandle: FileWriteHandle {
    private(set) var data = Data()

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        data.append(contentsOf: bytes)
    }

    func close() throws {}
}
