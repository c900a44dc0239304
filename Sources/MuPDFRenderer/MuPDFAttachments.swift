import CMuPDF
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

#if canImport(Glibc)
import Glibc
#endif

extension MuPDFDocument {
    func attachments() throws -> [Attachment] {
        final class Collector {
            var attachments: [Attachment] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_attachments(handle, { user, found in
            guard let found = found?.pointee else { return }
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            let date = { (seconds: Int64) in seconds >= 0 ? Date(timeIntervalSince1970: TimeInterval(seconds)) : nil }
            let checksum = found.checksum.map { bytes in
                String(hexadecimal: (0..<Int(found.checksum_length)).map { bytes[$0] })
            }
            collector.attachments.append(Attachment(
                name: found.name.map { String(cString: $0) } ?? "", description: found.description.map { String(cString: $0) },
                size: found.size >= 0 ? Int(found.size) : nil, creationDate: date(found.created), modificationDate: date(found.modified),
                checksum: checksum, place: found.page >= 0 ? .annotation : .document, pageIndex: found.page >= 0 ? Int(found.page) : nil))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "list the attachments", code: .damaged) }
        return collector.attachments
    }

    func attachmentContents(at index: Int) throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        var error = cmupdf_error()
        guard cmupdf_attachment_contents(handle, Int32(index), &bytes, &length, &error) != 0, let bytes else {
            throw MuPDFErrors.translate(error, doing: "read attachment \(index)", code: .damaged)
        }
        defer { free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    func addAttachment(name: String, contents: Data, description: String?, modificationDate: Date?) throws {
        var error = cmupdf_error()
        let modified = modificationDate.map { Int64($0.timeIntervalSince1970) } ?? -1
        let ok = contents.withUnsafeBytes {
            cmupdf_add_attachment(handle, name, description, $0.bindMemory(to: UInt8.self).baseAddress, $0.count, modified, &error)
        }
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "embed \(name)") }
    }

    func removeAttachment(at index: Int) throws {
        var error = cmupdf_error()
        guard cmupdf_remove_attachment(handle, Int32(index), &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "remove attachment \(index)")
        }
    }
}
