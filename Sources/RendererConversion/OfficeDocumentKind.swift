import Foundation

extension OfficeConverter {
    /// The extension (one of ``documentExtensions``) of the office document at `path`, read
    /// from its first bytes and its ZIP entries' names, for a file that came without a name
    /// (an upload); nil for anything else. OpenDocument packages say their kind in their
    /// first entry (`mimetype`), flat OpenDocument XML in `office:mimetype`, Office Open XML
    /// packages by the folder their parts are in (`word/`, `xl/`, `ppt/`); an OLE2 compound
    /// file (Word, Excel or PowerPoint 97) is named `doc`, and LibreOffice tells which it is.
    public static func documentExtension(sniffing path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 1 << 16)) ?? Data()
        let size = (try? handle.seekToEnd()) ?? 0
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            if let kind = openDocumentKind(String(decoding: head.dropFirst(30).prefix(90), as: UTF8.self)) { return kind.packaged }
            // The central directory, at the end, names every part.
            try? handle.seek(toOffset: size > 1 << 18 ? size - (1 << 18) : 0)
            let tail = String(decoding: (try? handle.readToEnd()) ?? Data(), as: UTF8.self) + String(decoding: head, as: UTF8.self)
            guard tail.contains("[Content_Types].xml") else { return nil }
            return tail.contains("word/") ? "docx" : tail.contains("xl/") ? "xlsx" : tail.contains("ppt/") ? "pptx" : nil
        }
        if head.starts(with: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return "doc" }
        if head.starts(with: Array("{\\rtf".utf8)) { return "rtf" }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        guard text.hasPrefix("<?xml"), text.contains("office:document"), let range = text.range(of: "office:mimetype=\"") else { return nil }
        return openDocumentKind(String(text[range.upperBound...]))?.flat
    }

    /// The kind the first OpenDocument media type in `text` names.
    private static func openDocumentKind(_ text: String) -> (packaged: String, flat: String)? {
        guard let range = text.range(of: "application/vnd.oasis.opendocument.") else { return nil }
        let type = text[range.upperBound...]
        if type.hasPrefix("text") { return ("odt", "fodt") }
        if type.hasPrefix("spreadsheet") { return ("ods", "fods") }
        if type.hasPrefix("presentation") { return ("odp", "fodp") }
        return nil
    }
}
