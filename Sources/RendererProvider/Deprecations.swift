// The names this release replaced, kept for one release: each forwards to its new name.

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Document {
    /// The document's optional-content groups.
    @available(*, deprecated, renamed: "optionalContentGroups()")
    public func layers() throws -> [OptionalContentGroup] { try optionalContentGroups() }

    /// The document's optional-content configurations.
    @available(*, deprecated, renamed: "optionalContentConfigurations()")
    public func layerConfigurations() throws -> [OptionalContentConfiguration] { try optionalContentConfigurations() }

    /// Adds an annotation.
    @available(*, deprecated, renamed: "addAnnotation(_:)")
    @discardableResult
    public func add(_ annotation: Annotation) throws -> Annotation { try addAnnotation(annotation) }

    /// Changes an annotation.
    @available(*, deprecated, renamed: "updateAnnotation(_:)")
    @discardableResult
    public func update(_ annotation: Annotation) throws -> Annotation { try updateAnnotation(annotation) }

    /// Adds an annotation on `threads`.
    @available(*, deprecated, renamed: "addAnnotation(_:on:)")
    @discardableResult
    public func add(_ annotation: Annotation, on threads: EngineThreads = .shared) async throws -> Annotation {
        try await addAnnotation(annotation, on: threads)
    }

    /// Changes an annotation on `threads`.
    @available(*, deprecated, renamed: "updateAnnotation(_:on:)")
    @discardableResult
    public func update(_ annotation: Annotation, on threads: EngineThreads = .shared) async throws -> Annotation {
        try await updateAnnotation(annotation, on: threads)
    }

    /// The page's size, rotation, label and boxes.
    @available(*, deprecated, renamed: "pageInfo(pageAt:)")
    public func pageInfo(at index: Int) throws -> PageInfo { try pageInfo(pageAt: index) }

    /// The page's annotations.
    @available(*, deprecated, renamed: "annotations(pageAt:)")
    public func annotations(onPageAt index: Int) throws -> [Annotation] { try annotations(pageAt: index) }

    /// The page's page space.
    @available(*, deprecated, renamed: "pageSpace(pageAt:)")
    public func pageSpace(ofPageAt index: Int) throws -> PageSpace { try pageSpace(pageAt: index) }

    /// Applies the redactions of one page, or of every page.
    @available(*, deprecated, renamed: "applyRedactions(pageAt:blackBoxes:)")
    public func applyRedactions(onPageAt index: Int?, blackBoxes: Bool = true) throws -> [Int] {
        try applyRedactions(pageAt: index, blackBoxes: blackBoxes)
    }
}

extension ReadingSession {
    /// The page's size, rotation, label and boxes.
    @available(*, deprecated, renamed: "pageInfo(pageAt:)")
    public func pageInfo(at index: Int) throws -> PageInfo { try pageInfo(pageAt: index) }

    /// The page's annotations.
    @available(*, deprecated, renamed: "annotations(pageAt:)")
    public func annotations(onPageAt index: Int) throws -> [Annotation] { try annotations(pageAt: index) }

    /// The page's page space.
    @available(*, deprecated, renamed: "pageSpace(pageAt:)")
    public func pageSpace(ofPageAt index: Int) throws -> PageSpace { try pageSpace(pageAt: index) }

    /// Applies the redactions of one page, or of every page.
    @available(*, deprecated, renamed: "applyRedactions(pageAt:blackBoxes:)")
    public func applyRedactions(onPageAt index: Int?, blackBoxes: Bool = true) throws -> [Int] {
        try applyRedactions(pageAt: index, blackBoxes: blackBoxes)
    }
}

/// The renderer's calls this release replaced.
extension Renderer {
    /// The bitmap as a PNG file. Engines no longer encode: the provider's encoder writes it.
    @available(*, deprecated, message: "engines draw and the provider encodes: use Bitmap.pngData(_:)")
    public func pngData(for bitmap: Bitmap) throws -> Data { try bitmap.pngData() }
}

/// Which renderer serves a document.
@available(*, deprecated, renamed: "RendererSelection")
public typealias BackendSelection = RendererSelection

/// The registry's calls this release renamed.
extension RendererRegistry {
    /// Opens a document with the renderer `backend` selects.
    @available(*, deprecated, renamed: "open(_:password:renderer:needing:limits:)")
    public func open(
        _ source: DocumentSource, password: String? = nil, backend: RendererSelection, needing capabilities: Set<Capability> = [],
        limits: DocumentLimits = DocumentLimits()
    ) throws -> Document {
        try open(source, password: password, renderer: backend, needing: capabilities, limits: limits)
    }

    /// Opens a document with the renderer `backend` selects, on `threads`.
    @available(*, deprecated, renamed: "open(_:password:renderer:needing:limits:on:)")
    public func open(
        _ source: DocumentSource, password: String? = nil, backend: RendererSelection, needing capabilities: Set<Capability> = [],
        limits: DocumentLimits = DocumentLimits(), on threads: EngineThreads = .shared
    ) async throws -> Document {
        try await open(source, password: password, renderer: backend, needing: capabilities, limits: limits, on: threads)
    }
}

/// The configuration's names this release changed.
extension SessionConfiguration {
    /// A configuration that opens with the renderer `backend` selects.
    @available(*, deprecated, renamed: "init(pageIndex:password:renderer:limits:settings:bookmarks:annotations:clock:fileSystem:collaboration:)")
    public init(
        pageIndex: Int? = nil, password: String? = nil, backend: RendererSelection, limits: DocumentLimits = DocumentLimits(),
        settings: DocumentSettings = DocumentSettings(), bookmarks: [Bookmark] = [], annotations: [Annotation] = [],
        clock: @escaping @Sendable () -> Date = { Date() }, fileSystem: any FileSystem = LocalFileSystem(),
        collaboration: (any CollaborationService)? = nil
    ) {
        self.init(
            pageIndex: pageIndex, password: password, renderer: backend, limits: limits, settings: settings, bookmarks: bookmarks,
            annotations: annotations, clock: clock, fileSystem: fileSystem, collaboration: collaboration)
    }

    /// The renderer to open with, or `auto`.
    @available(*, deprecated, renamed: "renderer")
    public var backend: RendererSelection {
        get { renderer }
        set { renderer = newValue }
    }
}
