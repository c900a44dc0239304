import Foundation
import RendererProvider

/// What the scripted engines of these tests share: a one-page document that is its own
/// page, a blank 100 x 100 point page without text or links, never drawn.
protocol StubEngine: MetadataReading, OutlineReading, ProtectedSaving, LinkReading, AnnotationWriting {}

extension StubEngine {
    func info() throws -> DocumentInfo { DocumentInfo(pageCount: 1, pdfVersion: "1.7") }
    func xmpPacket() throws -> Data? { nil }
    func outline() throws -> [OutlineItem] { [] }
    func namedDestination(_ name: String) throws -> Destination? { nil }
    func documentActions() throws -> DocumentActions { DocumentActions() }
    func loadPage(at index: Int) throws -> any EnginePage { self }
    func plainText() throws -> String { "" }
    func textPage() throws -> TextPage { TextPage(blocks: []) }
    func links() throws -> [Link] { [] }
    func render(_ area: PixelRect, options: RenderOptions, into pixels: UnsafeMutableBufferPointer<UInt8>, cancellation: Cancellation?) throws {
        fatalError("not drawn in these tests")
    }
    func pageSpace() throws -> PageSpace { PageSpace(cropBox: UserRect(x0: 0, y0: 0, x1: 100, y1: 100), rotation: .none) }
    func write(into handle: any FileWriteHandle, incremental: Bool) throws { fatalError("not saved into a file system in these tests") }
    func write(to path: String, protection: PasswordProtection?) throws { fatalError("not protected in these tests") }
}
