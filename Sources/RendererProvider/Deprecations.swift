// The names this release replaced, kept for one release: each forwards to its new name.

import Foundation

extension Document {
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
