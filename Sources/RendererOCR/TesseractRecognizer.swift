import CTesseract
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

/// Text recognition by Tesseract, through its C API (Debian's libtesseract5, loaded when
/// first used, and its language data, `tesseract-ocr-LANG`): words with their boxes and confidences, in the
/// `TextPage` shape the engines give, paragraphs as blocks, a table of contents' leader dots
/// as periods. Safe to share between threads:
/// each recognition takes a Tesseract instance of its own, kept for the next when done.
public final class TesseractRecognizer: TextRecognizer {
    /// Where Debian's packages put the language data.
    public static let debianDataPath = "/usr/share/tesseract-ocr/5/tessdata"

    /// The languages read, in Tesseract's names (`eng`, `deu`, `chi_sim`), first the main one.
    public let languages: [String]
    /// The folder of the language data (`LANG.traineddata`).
    public let dataPath: String
    private let idle = Locked<[TesseractInstance]>([])

    /// A recognizer of `languages`, Tesseract's names joined by `+` as on its command line
    /// (`eng+deu`), from the data in `dataPath` (default: `$TESSDATA_PREFIX`, else
    /// ``debianDataPath``). Throws `invalidArgument` for a name that is no language name, and
    /// `unsupported`, naming the Debian package to install, for a language without data.
    public init(languages: String = "eng", dataPath: String? = nil) throws {
        let names = languages.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        for name in names {
            guard (1...32).contains(name.count), name.first!.isASCII, name.first!.isLetter,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw RendererError(.invalidArgument, "\"\(languages.prefix(64))\" is no list of Tesseract languages such as eng or eng+deu")
            }
        }
        let path = dataPath ?? ProcessInfo.processInfo.environment["TESSDATA_PREFIX"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.debianDataPath
        for name in names where !FileManager.default.fileExists(atPath: path + "/" + name + ".traineddata") {
            let package = "tesseract-ocr-" + String(name.lowercased().map { $0 == "_" ? "-" : $0 })
            throw RendererError(.unsupported, "Tesseract has no data for the language \(name): install Debian's package \(package)")
        }
        self.languages = names
        self.dataPath = path
    }

    public func recognize(_ bitmap: Bitmap, pointsPerPixel: Double, cancellation: Cancellation?) throws -> TextPage {
        guard bitmap.width > 0, bitmap.height > 0, bitmap.width <= Int(Int32.max) / 4, bitmap.height <= Int(Int32.max) else {
            throw RendererError(.invalidArgument, "an image of \(bitmap.width) x \(bitmap.height) pixels cannot be read")
        }
        try cancellation?.check()
        let instance = try idle.withLock { $0.popLast() } ?? TesseractInstance(languages: languages.joined(separator: "+"), dataPath: dataPath)
        let page = try instance.read(bitmap, pointsPerPixel: pointsPerPixel, cancellation: cancellation)
        idle.withLock { $0.append(instance) }
        return page
    }
}

/// One Tesseract instance (a `TessBaseAPI`), its only owner: made ready for its languages
/// once, used by one thread at a time, ended when dropped.
final class TesseractInstance: @unchecked Sendable {
    private let api: ctesseract_api
    private let handle: OpaquePointer

    init(languages: String, dataPath: String) throws {
        var failure: UnsafePointer<CChar>?
        guard let api = ctesseract_load(&failure)?.pointee else {
            throw RendererError(.unsupported, failure.map { String(cString: $0) } ?? "Tesseract's library cannot be loaded")
        }
        guard let handle = api.TessBaseAPICreate!() else { throw RendererError(.engineFailure, "Tesseract could not start") }
        guard api.TessBaseAPIInit3!(handle, dataPath, languages) == 0 else {
            api.TessBaseAPIDelete!(handle)
            throw RendererError(.engineFailure, "Tesseract could not load the data of \(languages)")
        }
        self.api = api
        self.handle = handle
    }

    deinit {
        api.TessBaseAPIEnd!(handle)
        api.TessBaseAPIDelete!(handle)
    }

    /// The text of `bitmap`, its boxes scaled by `pointsPerPixel`; rows of leader dots are
    /// taken out of the image Tesseract reads and put back as periods (``DotLeaders``).
    func read(_ bitmap: Bitmap, pointsPerPixel: Double, cancellation: Cancellation?) throws -> TextPage {
        defer { api.TessBaseAPIClear!(handle) }
        let leaders = DotLeaders(in: bitmap, pointsPerPixel: pointsPerPixel)
        let bitmap = leaders.rows.isEmpty ? bitmap : leaders.erased(from: bitmap)
        let resolution = Int32((72 / pointsPerPixel).rounded())
        let recognized: Int32 = bitmap.bytes.withUnsafeBufferPointer { pixels in
            api.TessBaseAPISetImage!(
                handle, pixels.baseAddress, Int32(bitmap.width), Int32(bitmap.height), Int32(bitmap.format.bytesPerPixel), Int32(bitmap.stride))
            api.TessBaseAPISetSourceResolution!(handle, resolution)
            guard let cancellation else { return api.TessBaseAPIRecognize!(handle, nil) }
            let monitor = api.TessMonitorCreate!()
            defer { api.TessMonitorDelete!(monitor) }
            api.TessMonitorSetCancelThis!(monitor, Unmanaged.passUnretained(cancellation).toOpaque())
            api.TessMonitorSetCancelFunc!(monitor) { this, _ in
                Unmanaged<Cancellation>.fromOpaque(this!).takeUnretainedValue().isCancelled
            }
            return withExtendedLifetime(cancellation) { api.TessBaseAPIRecognize!(handle, monitor) }
        }
        try cancellation?.check()
        guard recognized == 0 else { throw RendererError(.engineFailure, "Tesseract could not read the page image") }
        guard let iterator = api.TessBaseAPIGetIterator!(handle) else { return leaders.restored(into: TextPage(blocks: []), scale: pointsPerPixel) }
        defer { api.TessResultIteratorDelete!(iterator) }
        return leaders.restored(into: PageReading(api: api, iterator: iterator, scale: pointsPerPixel).page(), scale: pointsPerPixel)
    }
}

/// Tesseract's results walked symbol by symbol into blocks (its paragraphs) of lines of
/// characters, a space between words; each character as wide as its symbol's box and as
/// high as its line's.
private struct PageReading {
    let api: ctesseract_api
    let iterator: OpaquePointer
    let scale: Double

    func page() -> TextPage {
        var blocks: [TextBlock] = []
        var lines: [TextLine] = []
        var characters: [TextCharacter] = []
        var line = PageRect(x: 0, y: 0, width: 0, height: 0)
        var size: Double?
        func endLine() {
            if !characters.isEmpty { lines.append(TextLine(characters: characters)) }
            characters = []
        }
        func endBlock() {
            endLine()
            if !lines.isEmpty { blocks.append(TextBlock(lines: lines)) }
            lines = []
        }
        let pageIterator = api.TessResultIteratorGetPageIterator!(iterator)
        repeat {
            guard let box = box(pageIterator, RIL_SYMBOL), let text = text(RIL_SYMBOL) else { continue }
            if api.TessPageIteratorIsAtBeginningOf!(pageIterator, RIL_PARA) != 0 { endBlock() }
            if api.TessPageIteratorIsAtBeginningOf!(pageIterator, RIL_TEXTLINE) != 0 {
                endLine()
                line = self.box(pageIterator, RIL_TEXTLINE) ?? box
                size = fontSize(pageIterator, lineTop: line.minY)
            } else if api.TessPageIteratorIsAtBeginningOf!(pageIterator, RIL_WORD) != 0, let last = characters.last {
                let gap = PageRect(x: last.quad.bounds.maxX, y: line.minY, width: max(0, box.minX - last.quad.bounds.maxX), height: line.size.height)
                characters.append(TextCharacter(text: " ", quad: Quad(gap), fontSize: size))
            }
            let confidence = Double(api.TessResultIteratorConfidence!(iterator, RIL_SYMBOL))
            let quad = Quad(PageRect(x: box.minX, y: line.minY, width: box.size.width, height: line.size.height))
            characters.append(TextCharacter(text: text, quad: quad, fontSize: size, confidence: min(100, max(0, confidence))))
        } while api.TessResultIteratorNext!(iterator, RIL_SYMBOL) != 0
        endBlock()
        return TextPage(blocks: blocks)
    }

    private func box(_ pageIterator: OpaquePointer?, _ level: TessPageIteratorLevel) -> PageRect? {
        var (left, top, right, bottom): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard api.TessPageIteratorBoundingBox!(pageIterator, level, &left, &top, &right, &bottom) != 0 else { return nil }
        return PageRect(x: Double(left) * scale, y: Double(top) * scale, width: Double(right - left) * scale, height: Double(bottom - top) * scale)
    }

    /// The font size of the line the iterator is at, estimated from the height of its
    /// tallest letters above its baseline, taken as 0.7 em (the ascender and capital height
    /// of most text faces); nil without a baseline.
    private func fontSize(_ pageIterator: OpaquePointer?, lineTop: Double) -> Double? {
        var (x1, y1, x2, y2): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        guard api.TessPageIteratorBaseline!(pageIterator, RIL_TEXTLINE, &x1, &y1, &x2, &y2) != 0 else { return nil }
        let baseline = Double(y1 + y2) / 2 * scale
        return baseline > lineTop ? (baseline - lineTop) / 0.7 : nil
    }

    private func text(_ level: TessPageIteratorLevel) -> String? {
        guard let pointer = api.TessResultIteratorGetUTF8Text!(iterator, level) else { return nil }
        defer { api.TessDeleteText!(pointer) }
        let text = String(cString: pointer)
        return text.isEmpty ? nil : text
    }
}
