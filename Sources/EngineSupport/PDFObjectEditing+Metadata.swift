#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// Document metadata, read and written over the PDF-object primitives for every engine: the
/// catalog's XMP packet and language, and the trailer's Info dictionary.
extension PDFObjectReading {
    /// The catalog's XMP packet (its `/Metadata` stream), decoded; nil when there is none.
    /// Read from the objects each time, so that a packet written since is the one read.
    package func catalogXMPPacket() throws -> Data? {
        guard case .reference(let metadata)? = try object(try catalogReference().number)["Metadata"] else { return nil }
        return try streamContents(metadata.number, limit: Self.longestXMPPacket, decoded: true)
    }

    /// The catalog's natural language (`/Lang`): a tag of ASCII letters, digits and hyphens
    /// (BCP 47, such as `en-GB`), at most 35 long; nil when there is none or it is no tag.
    package func catalogLanguage() throws -> String? {
        guard case .string(let bytes) = try resolved(try object(try catalogReference().number)["Lang"]) else { return nil }
        let tag = PDFTextString.decode(bytes)
        let isTag = !tag.isEmpty && tag.count <= 35 && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        return isTag ? tag : nil
    }

    /// The longest XMP packet read (a longer one is as none).
    private static var longestXMPPacket: Int { 256 << 20 }
}

extension PDFObjectEditing {
    /// Writes `metadata` into the Info dictionary, an entry for each field (a field that is
    /// nil removes its entry), making the dictionary when the document has none; then makes
    /// `xmpPacket`, when given, the catalog's XMP packet (``setXMPPacket(_:)``).
    package func writeMetadata(_ metadata: DocumentMetadata, xmpPacket: Data?) throws {
        var changes: [String: PDFObject] = [:]
        var removed: Set<String> = []
        for (key, value) in metadata.infoEntries {
            if let value { changes[key] = .text(value) } else { removed.insert(key) }
        }
        let info = try trailer()["Info"]
        if case .reference(let reference)? = info, case .dictionary = try object(reference.number) {
            for (key, value) in changes { try setEntry(key, of: reference, to: value) }
            for key in removed { try setEntry(key, of: reference, to: nil) }
        } else if !changes.isEmpty {
            // None yet, or one held in the trailer itself: a dictionary of its own.
            var entries: [String: PDFObject] = [:]
            if case .dictionary(let direct)? = info { entries = direct }
            for key in removed { entries[key] = nil }
            entries.merge(changes) { _, new in new }
            try setTrailerEntry("Info", to: .reference(try addObject(.dictionary(entries))))
        }
        if let xmpPacket { try setXMPPacket(xmpPacket) }
    }

    /// Makes `packet` the document's XMP metadata: a new `/Type /Metadata /Subtype /XML`
    /// stream, uncompressed as XMP asks (so that tools that do not parse PDF find it), which
    /// the catalog's `/Metadata` names.
    package func setXMPPacket(_ packet: Data) throws {
        let stream = try addStream(.dictionary(["Type": .name("Metadata"), "Subtype": .name("XML")]), contents: packet)
        try setEntry("Metadata", of: try catalogReference(), to: .reference(stream))
    }
}
