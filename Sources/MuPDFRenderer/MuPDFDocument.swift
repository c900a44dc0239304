import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import RendererEngine

/// One MuPDF document with its own MuPDF context, freed in `deinit`.
final class MuPDFDocument:
    MetadataWriting, OutlineWriting, LinkWriting, ContentReading, AttachmentWriting, OptionalContentControl, ProtectedSaving,
    SignatureReading, DocumentSigning, FormFilling, FormFlattening, PageEditing, PageMerging, Reflowing
{
    let handle: OpaquePointer
    /// The page count, read again after each page edit and layout.
    var pageCount: Int
    let contentType: ContentType
    /// Receives the context's messages; it lives as long as the context.
    let logSink: MuPDFLogSink
    /// True when the owner password opened the document, which then allows everything.
    private let ownerAccess: Bool
    /// The page labels, read once; page edits forget them.
    var labelRanges: [PageLabelRange]?

    init(source: DocumentSource, password: String?, cacheBytes: Int, opensRepairedFiles: Bool = true, logger: Logger) throws {
        let sink = MuPDFLogSink(logger: logger)
        let user = Unmanaged.passUnretained(sink).toOpaque()
        var error = cmupdf_error()
        let type = try source.sniffContentType()
        if type == .fb2 { try MarkupNesting.check(try source.data(), name: source.displayName) }
        let magic = MuPDFRenderer.magic(for: type)
        let opened: OpaquePointer?
        switch source {
        case .file(let path):
            opened = cmupdf_open_file(path, magic, cacheBytes, MuPDFLogSink.callback, user, &error)
        case .memory(let data):
            opened = data.withUnsafeBytes {
                cmupdf_open_memory($0.bindMemory(to: UInt8.self).baseAddress, $0.count, magic, cacheBytes, MuPDFLogSink.callback, user, &error)
            }
        case .stream(let stream):
            opened = cmupdf_open_stream(try StreamBridge.cStream(stream), magic, cacheBytes, MuPDFLogSink.callback, user, &error)
        }
        guard let opened else { throw MuPDFErrors.openFailure(error, source: source) }

        let access: Int32
        var bits: Int32 = 0
        if cmupdf_needs_password(opened) != 0 {
            guard let password else {
                cmupdf_close(opened)
                throw MuPDFErrors.passwordRequired(source)
            }
            access = cmupdf_authenticate(opened, password)
            guard access != 0 else {
                cmupdf_close(opened)
                throw MuPDFErrors.wrongPassword(source)
            }
        } else if let password, cmupdf_encryption(opened, &bits) != 0 {
            // The document opens without a password; one given must still be the user's or
            // the owner's (which then allows everything), as Poppler requires too.
            access = cmupdf_authenticate(opened, password)
            guard access & 6 != 0 else {
                cmupdf_close(opened)
                throw MuPDFErrors.wrongPassword(source)
            }
        } else {
            access = 0
        }

        if type.isReflowable {
            let size = ReflowLayout.defaultPageSize
            guard cmupdf_layout(opened, Float(size.width), Float(size.height), Float(ReflowLayout.defaultFontSize), &error) != 0 else {
                cmupdf_close(opened)
                throw MuPDFErrors.openFailure(error, source: source)
            }
        }
        let count = cmupdf_page_count(opened, &error)
        guard count >= 0 else {
            cmupdf_close(opened)
            throw MuPDFErrors.openFailure(error, source: source)
        }
        // Checked last: MuPDF may repair while it opens the file or while it counts the pages.
        guard opensRepairedFiles || cmupdf_was_repaired(opened) == 0 else {
            cmupdf_close(opened)
            throw MuPDFErrors.repaired(source)
        }
        handle = opened
        logSink = sink
        ownerAccess = access & 4 != 0
        pageCount = Int(count)
        contentType = type
    }

    deinit {
        cmupdf_close(handle)
    }

    func info() throws -> DocumentInfo {
        var bits: Int32 = 0
        let encrypted = cmupdf_encryption(handle, &bits) != 0
        let version = cmupdf_pdf_version(handle)
        return DocumentInfo(
            pageCount: pageCount,
            pdfVersion: contentType == .pdf ? "\(version / 10).\(version % 10)" : "",
            title: metadata("info:Title"),
            author: metadata("info:Author"),
            subject: metadata("info:Subject"),
            keywords: metadata("info:Keywords"),
            creator: metadata("info:Creator"),
            producer: metadata("info:Producer"),
            creationDate: metadata("info:CreationDate").flatMap(PDFDate.parse),
            modificationDate: metadata("info:ModDate").flatMap(PDFDate.parse),
            isEncrypted: encrypted,
            permissions: !encrypted || ownerAccess ? .all : DocumentPermissions(pdfPermissionBits: bits),
            fileIdentifier: fileIdentifier(), contentType: contentType,
            language: contentType == .pdf ? try? catalogLanguage() : nil)
    }

    func layout(pageSize: PageSize, fontSize: Double) throws {
        var error = cmupdf_error()
        guard cmupdf_layout(handle, Float(pageSize.width), Float(pageSize.height), Float(fontSize), &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "lay the document out", code: .damaged)
        }
        let count = cmupdf_page_count(handle, &error)
        guard count >= 0 else { throw MuPDFErrors.translate(error, doing: "count the pages", code: .damaged) }
        pageCount = Int(count)
    }

    func loadPage(at index: Int) throws -> any EnginePage {
        var error = cmupdf_error()
        guard let page = cmupdf_load_page(handle, Int32(index), &error) else {
            throw MuPDFErrors.translate(error, doing: "load page \(index + 1)", code: .damaged)
        }
        return MuPDFPage(document: self, handle: page, index: index)
    }

    /// The label of page `index`, from the document's `/PageLabels`, read once.
    func label(forPage index: Int) throws -> String {
        if labelRanges == nil { labelRanges = try readLabelRanges() }
        return PageLabelRange.label(forPage: index, in: labelRanges ?? [])
    }

    private func readLabelRanges() throws -> [PageLabelRange] {
        final class Collector {
            var ranges: [PageLabelRange] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_page_labels(handle, { user, firstPage, style, prefix, firstNumber in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            let styleName = style == 0 ? "" : String(UnicodeScalar(UInt8(style)))
            collector.ranges.append(PageLabelRange(
                firstPage: Int(firstPage), style: PageLabelRange.Style(pdfName: styleName),
                prefix: prefix.map { String(cString: $0) } ?? "", firstNumber: Int(firstNumber)))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "read the page labels", code: .damaged) }
        return collector.ranges
    }

    /// A value from the Info dictionary (or MuPDF's other metadata keys); `nil` when absent or empty.
    private func metadata(_ key: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let needed = cmupdf_metadata(handle, key, &buffer, Int32(buffer.count))
        guard needed > 0 else { return nil }
        if Int(needed) > buffer.count {
            buffer = [CChar](repeating: 0, count: Int(needed))
            _ = cmupdf_metadata(handle, key, &buffer, needed)
        }
        let value = String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return value.isEmpty ? nil : value
    }
}
