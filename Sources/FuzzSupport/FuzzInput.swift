import Foundation
import RendererProvider

/// What the fuzz targets do with one input: open it from memory with one renderer, read
/// every page's facts, and draw and read the text of the first pages, as a caller would.
/// Every error the API throws is an acceptable outcome; only a crash, a hang or a leak is a
/// finding.
public enum FuzzInput {
    /// The pages drawn and read per input.
    public static let pages = 2

    public static func run(_ bytes: UnsafeRawBufferPointer, with renderer: any Renderer) {
        let registry = RendererRegistry([renderer])
        guard let document = try? registry.open(.memory(Data(bytes)), renderer: .id(renderer.id), limits: DocumentLimits(cacheBytes: 16 << 20)) else {
            return
        }
        _ = try? document.info()
        _ = try? document.pageInfos()
        // Small bitmaps keep each input fast; the limits keep a huge page from allocating.
        let options = RenderOptions(dpi: 18, maximumPixelCount: 1 << 22)
        for index in 0..<min(document.pageCount, pages) {
            _ = try? document.render(pageAt: index, options: options, cancellation: Cancellation(timeLimit: .seconds(5)))
            _ = try? document.text(pageAt: index)
        }
    }

    /// Runs each file named in `arguments` once, for replaying a finding without libFuzzer.
    public static func replay(_ arguments: [String], with renderer: any Renderer) {
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            data.withUnsafeBytes { run($0, with: renderer) }
            print("\(path): done")
        }
    }
}
