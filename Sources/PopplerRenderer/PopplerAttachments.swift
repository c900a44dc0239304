import CPopplerGlib
import Foundation
import RendererEngine

extension PopplerDocument {
    func attachments() throws -> [Attachment] {
        try logging { try currentGlib().withAttachments { $0.map(\.attachment) } }
    }

    func attachmentContents(at index: Int) throws -> Data {
        try logging {
            try currentGlib().withAttachments { found in
                guard found.indices.contains(index) else { throw RendererError(.invalidArgument, "the document has no attachment \(index)") }
                final class Sink {
                    var data = Data()
                }
                let sink = Sink()
                var error: UnsafeMutablePointer<GError>?
                let saved = poppler_attachment_save_to_callback(found[index].handle, { bytes, count, user, _ in
                    let sink = Unmanaged<Sink>.fromOpaque(user!).takeUnretainedValue()
                    if let bytes, count > 0 { bytes.withMemoryRebound(to: UInt8.self, capacity: Int(count)) { sink.data.append($0, count: Int(count)) } }
                    return 1
                }, Unmanaged.passUnretained(sink).toOpaque(), &error)
                guard saved != 0 else {
                    let message = error.map { String(cString: $0.pointee.message) } ?? "Poppler could not read it"
                    g_clear_error(&error)
                    throw RendererError(.damaged, "cannot read attachment \(index): \(message)")
                }
                return sink.data
            }
        }
    }
}
