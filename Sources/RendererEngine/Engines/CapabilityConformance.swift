extension Capability {
    /// Whether `document` and its `page` conform to the protocol this capability needs (the
    /// one table of them); true for what every engine document does (opening, passwords,
    /// drawing, text, page labels). A renderer that declares a capability its documents do
    /// not serve this way is wrong, and the conformance suites say so.
    public func isServed(by document: any EngineDocument, page: any EnginePage) -> Bool {
        switch self {
        case .openFile, .openMemory, .openStream, .passwords, .pageLabels, .render, .text: true
        case .metadata: document is any MetadataReading
        case .editMetadata: document is any MetadataWriting
        case .outline: document is any OutlineReading
        case .editOutline: document is any OutlineWriting
        case .links: page is any LinkReading
        case .editLinks: document is any LinkWriting
        case .annotations: page is any AnnotationReading
        case .editAnnotations: page is any AnnotationWriting
        case .imageStamps: page is any ImageStamping
        case .redact: page is any Redacting
        case .forms: document is any FormReading
        case .fillForms: document is any FormFilling
        case .flattenForms: document is any FormFlattening
        case .signatures: document is any SignatureReading
        case .sign: document is any DocumentSigning
        case .editPages: document is any PageEditing
        case .mergePages: document is any PageMerging
        case .reflow: document is any Reflowing
        case .structureTree: document is any StructureReading
        case .attachments: document is any AttachmentReading
        case .editAttachments: document is any AttachmentWriting
        case .optionalContent: document is any OptionalContentControl
        case .save: document is any DocumentSaving
        case .protect: document is any ProtectedSaving
        }
    }
}

extension EngineDocument {
    /// This document as `Conformance`, one of the document capability protocols
    /// (`try document.capability(OutlineReading.self).outline()`); throws `unsupported`,
    /// naming the protocol and `rendererID`'s renderer, when it does not conform.
    public func capability<Conformance>(_ type: Conformance.Type, rendererID: String? = nil) throws -> Conformance {
        try conformance(of: self, to: type, rendererID: rendererID)
    }
}

extension EnginePage {
    /// This page as `Conformance`, one of the page capability protocols, as
    /// ``EngineDocument/capability(_:rendererID:)`` gives a document.
    public func capability<Conformance>(_ type: Conformance.Type, rendererID: String? = nil) throws -> Conformance {
        try conformance(of: self, to: type, rendererID: rendererID)
    }
}

/// `value` as `Conformance`, or `unsupported` saying what it does not do.
private func conformance<Conformance>(of value: AnyObject, to type: Conformance.Type, rendererID: String?) throws -> Conformance {
    guard let conforming = value as? Conformance else {
        let name = String(describing: type).replacing("any ", with: "")
        let what = refusals[ObjectIdentifier(type)] ?? "implement \(name)"
        throw RendererError(.unsupported, "this engine does not \(what)", rendererID: rendererID)
    }
    return conforming
}

/// What each capability protocol does, in the words of the error a document or page that
/// does not conform gives ("this engine does not …").
private let refusals: [ObjectIdentifier: String] = [
    ObjectIdentifier((any MetadataReading).self): "read a document's metadata and actions",
    ObjectIdentifier((any MetadataWriting).self): "write metadata",
    ObjectIdentifier((any OutlineReading).self): "read outlines",
    ObjectIdentifier((any OutlineWriting).self): "edit outlines",
    ObjectIdentifier((any LinkWriting).self): "edit links",
    ObjectIdentifier((any StructureReading).self): "read structure trees",
    ObjectIdentifier((any ContentReading).self): "list a document's fonts, images and drawings",
    ObjectIdentifier((any AttachmentReading).self): "read attachments",
    ObjectIdentifier((any AttachmentWriting).self): "embed or remove files",
    ObjectIdentifier((any OptionalContentControl).self): "read or show optional content",
    ObjectIdentifier((any DocumentSaving).self): "save documents",
    ObjectIdentifier((any ProtectedSaving).self): "change a document's password protection",
    ObjectIdentifier((any SignatureReading).self): "list signatures",
    ObjectIdentifier((any DocumentSigning).self): "sign documents",
    ObjectIdentifier((any FormReading).self): "read forms",
    ObjectIdentifier((any FormFilling).self): "fill forms",
    ObjectIdentifier((any FormFlattening).self): "flatten forms",
    ObjectIdentifier((any PageEditing).self): "edit pages",
    ObjectIdentifier((any PageMerging).self): "copy pages from another PDF",
    ObjectIdentifier((any Reflowing).self): "lay documents out",
    ObjectIdentifier((any LinkReading).self): "read links",
    ObjectIdentifier((any AnnotationReading).self): "read annotations",
    ObjectIdentifier((any AnnotationWriting).self): "edit annotations",
    ObjectIdentifier((any ImageStamping).self): "draw images in stamps",
    ObjectIdentifier((any Redacting).self): "apply redactions",
]
