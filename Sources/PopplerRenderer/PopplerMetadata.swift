import EngineSupport
import Foundation
import RendererEngine

extension PopplerDocument {
    func xmpPacket() throws -> Data? {
        try core.catalogXMPPacket()
    }

    func documentActions() throws -> DocumentActions {
        try core.catalogActions()
    }

    func setMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        try writeMetadata(metadata, xmpPacket: xmpPacket)
    }

    /// The fonts of the document as it is now, edits included.
    func fonts() throws -> [FontInfo] {
        try logging { try currentGlib().fonts() }
    }

    /// The images the pages draw, read over the PDF objects as every engine reads them.
    func images() throws -> [DocumentImage] {
        try core.listImages(pages: 0..<pageCount)
    }

    func images(pages: [Int]) throws -> [DocumentImage] {
        try core.listImages(pages: pages)
    }

    /// What the pages draw with paths, read over the PDF objects as every engine reads them.
    func drawing(pages: [Int]) throws -> PageDrawing {
        try core.listDrawing(pages: pages)
    }

    func imageContents(_ image: DocumentImage) throws -> ImageContents {
        try core.imageContents(of: image)
    }
}
