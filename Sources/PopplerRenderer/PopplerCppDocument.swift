import CPopplerBridge
import EngineSupport
import Foundation
import RendererProvider

/// What poppler-glib does not tell of a document: whether it is encrypted, each page's
/// `/Rotate`, and a page's text as pdftotext writes it.
protocol PopplerFacts: AnyObject {
    var isEncrypted: Bool { get }
    var pageCount: Int { get }
    func rotation(ofPage index: Int) -> PageRotation
    /// The page's five boxes; `nil` when the page cannot be loaded.
    func boxes(ofPage index: Int) -> PageBoxes?
    /// The page's text as pdftotext writes it, without the form feed that ends each page;
    /// `nil` when the page cannot be loaded.
    func text(ofPage index: Int) -> String?
}

/// The same document opened through poppler's C++ API, for what poppler-glib does not
/// expose; closed in `deinit`. Confined like its glib twin.
final class PopplerCppDocument: PopplerFacts {
    private let handle: OpaquePointer

    /// `nil` when poppler-cpp cannot open what poppler-glib just opened, and for a stream,
    /// which poppler-cpp cannot read (the core document tells the same facts).
    init?(source: DocumentSource, absolutePath: String?, password: String?) {
        let opened: OpaquePointer?
        switch source {
        case .file:
            opened = cpoppler_open_file(absolutePath, password)
        case .memory(let data):
            opened = data.withUnsafeBytes {
                cpoppler_open_data($0.bindMemory(to: CChar.self).baseAddress, Int32(clamping: $0.count), password)
            }
        case .stream:
            return nil
        }
        guard let opened else { return nil }
        handle = opened
    }

    deinit {
        cpoppler_close(handle)
    }

    var isEncrypted: Bool { cpoppler_is_encrypted(handle) != 0 }
    var pageCount: Int { Int(cpoppler_page_count(handle)) }

    func rotation(ofPage index: Int) -> PageRotation {
        PageRotation(degrees: Int(cpoppler_page_rotation(handle, Int32(index)))) ?? .none
    }

    func boxes(ofPage index: Int) -> PageBoxes? {
        var numbers = [Double](repeating: 0, count: 20)
        return cpoppler_page_boxes(handle, Int32(index), &numbers) != 0 ? PageBoxes(userRects: numbers) : nil
    }

    func text(ofPage index: Int) -> String? {
        guard let text = cpoppler_page_text(handle, Int32(index)) else { return nil }
        defer { free(text) }
        var page = String(cString: text)
        if page.hasSuffix("\u{0C}") { page.removeLast() }
        return page
    }
}
