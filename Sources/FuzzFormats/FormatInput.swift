import Foundation
import RendererCollaborationMessages
import RendererProvider
import RendererProviderMetadata
import RendererProviderXFDF

/// What the formats fuzz target does with one input: hands it to every parser the project
/// wrote itself, as a stranger's file or message reaches each: FDF and XFDF form values,
/// XFDF annotations and the layer WebSocket's XFDF commands, an XMP packet (read, and
/// updated), content sniffing (ZIP packages' central directories among them), and the
/// collaboration messages (a push a server reads, and the answers, changes and snapshots a
/// sync client reads), with the API's annotation JSON in them, and a picture for an image
/// stamp (the JPEG and PNG glue over libjpeg and libpng). Every error the API throws is
/// an acceptable outcome; only a crash, a hang or a leak is a finding.
enum FormatInput {
    /// A page space of a Letter page turned a quarter, for reading geometry.
    static let pageSpace = PageSpace(cropBox: UserRect(x0: 0, y0: 0, x1: 612, y1: 792), rotation: .quarter)

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        _ = try? FormValues(fdf: data)
        _ = try? FormValues(xfdf: data)
        _ = try? XFDF.annotations(from: data, pageSpace: { _ in pageSpace })
        _ = try? XFDF.command(from: data, pageSpace: { _ in pageSpace })
        _ = try? XMP.metadata(in: data)
        _ = try? XMP.packet(updating: data, to: DocumentMetadata(title: "fuzz"))
        _ = try? DocumentSource.memory(data).sniffContentType()
        let json = JSONDecoder()
        _ = try? json.decode(LayerPush.self, from: data)
        _ = try? json.decode(PushResult.self, from: data)
        _ = try? json.decode(LayerChanges.self, from: data)
        _ = try? json.decode(LayerSnapshot.self, from: data)
        _ = try? Annotation.annotations(fromJSON: data)
        _ = try? StampImage(data: data)
    }

    /// Runs each file named in `arguments` once, for replaying a finding without libFuzzer.
    static func replay(_ arguments: [String]) {
        for path in arguments {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                continue
            }
            data.withUnsafeBytes { run($0) }
            print("\(path): done")
        }
    }
}
