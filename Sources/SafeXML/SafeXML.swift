import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import RendererProvider

/// The one way the project reads XML that a stranger may have written (XFDF over REST, a
/// layer's WebSocket and the command line; a PDF's XMP packet): well-formed or refused, and
/// never able to reach outside the bytes given.
///
/// On Linux, `XMLDocument` parses with libxml2 and, unless told otherwise, loads the external
/// DTD and entities a document names, so `<!ENTITY x SYSTEM "file:///…">` would copy a file of
/// the machine into whatever the document is read into. XFDF and XMP need no DTD, so a
/// document that declares one is refused before any parser sees it, external entities are
/// switched off besides, and only encodings in which that refusal can be checked on the bytes
/// (UTF-8 and the single-byte encodings that share ASCII's bytes) are read.
public enum SafeXML {
    /// The encodings an XML declaration may name: those whose bytes for ASCII characters are
    /// ASCII's, so that `<!DOCTYPE` cannot hide in another encoding.
    static let encodings: Set<String> = [
        "utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1", "iso-8859-15", "windows-1252", "cp1252",
    ]

    /// `data` parsed as an XML document with `options` (external entities never loaded).
    ///
    /// Throws `invalidArgument` when `data` declares a document type or entities; throws a
    /// `RendererError` of `malformed` when it is in an encoding other than those above or is
    /// not well-formed. A refusal never repeats
    /// the document's content.
    public static func document(
        from data: Data, what: String, malformed: RendererError.Code = .invalidArgument, options: XMLNode.Options = []
    ) throws -> XMLDocument {
        try checkDeclarations(of: data, what: what, malformed: malformed)
        // XMLDocument recovers from some errors (a document cut short reads as what came before
        // the cut), so well-formedness is checked first by a parser that does not. (On Linux,
        // `parse()` can return true with an error set: both are checked.)
        let checker = XMLParser(data: data)
        checker.shouldResolveExternalEntities = false
        guard checker.parse(), checker.parserError == nil else {
            let reason = checker.parserError.map { " (line \(checker.lineNumber): \($0.localizedDescription))" } ?? ""
            throw RendererError(malformed, "\(what) is not well-formed XML\(reason)")
        }
        do {
            return try XMLDocument(data: data, options: options.union(.nodeLoadExternalEntitiesNever))
        } catch {
            throw RendererError(malformed, "\(what) is not well-formed XML")
        }
    }

    /// Throws `malformed` unless `data` is ASCII-compatible XML (no NUL byte, a UTF-8 byte
    /// order mark allowed, `<` first) naming an encoding of ``encodings`` if any, and
    /// `invalidArgument` unless it holds no `<!DOCTYPE` or `<!ENTITY` declaration (not even
    /// in a comment or a CDATA section, which a byte search cannot tell apart: such a
    /// document is refused too).
    static func checkDeclarations(of data: Data, what: String, malformed: RendererError.Code) throws {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        // A NUL byte is never in XML of an ASCII-compatible encoding; in UTF-16 or UTF-32 it is
        // in every other character, and there a declaration would not be found by its bytes.
        guard !bytes.contains(0) else {
            throw RendererError(malformed, "\(what) must be XML in UTF-8 (or an encoding that shares ASCII's bytes), not UTF-16 or UTF-32")
        }
        guard let first = bytes.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") else {
            throw RendererError(malformed, "\(what) must be XML in UTF-8 (or an encoding that shares ASCII's bytes), starting with <")
        }
        if bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstRange(of: Array("?>".utf8)) {
            let declaration = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
            if let match = declaration.firstMatch(of: /encoding\s*=\s*["']([^"']*)["']/),
                !encodings.contains(match.1.lowercased()) {
                throw RendererError(
                    malformed, "\(what) names the encoding \"\(match.1.prefix(40))\"; only UTF-8 and ASCII-compatible encodings are read")
            }
        }
        for declaration in ["<!DOCTYPE", "<!ENTITY"] where bytes.firstRange(of: Array(declaration.utf8)) != nil {
            throw RendererError(
                .invalidArgument, "\(what) declares a document type or entities (\(declaration)), which this reader refuses: they can name files")
        }
    }
}
