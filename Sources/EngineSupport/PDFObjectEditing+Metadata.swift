import Foundation

extension PDFObjectEditing {
    /// Makes `packet` the document's XMP metadata: a new `/Type /Metadata /Subtype /XML`
    /// stream, uncompressed as XMP asks (so that tools that do not parse PDF find it), which
    /// the catalog's `/Metadata` names.
    package func setXMPPacket(_ packet: Data) throws {
        let stream = try addStream(.dictionary(["Type": .name("Metadata"), "Subtype": .name("XML")]), contents: packet)
        try setEntry("Metadata", of: try catalogReference(), to: .reference(stream))
    }
}
