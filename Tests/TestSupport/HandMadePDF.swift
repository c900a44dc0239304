import Foundation

/// PDFs the tests write at test time, object by object.
public enum HandMadePDF {
    /// The bytes of a PDF whose object n is `objects[n - 1]` (its text between `obj` and
    /// `endobj`), with a correct cross-reference table and object 1 as the catalog.
    public static func data(_ objects: [String]) -> Data {
        var file = "%PDF-1.7\n"
        var offsets: [Int] = []
        for (number, object) in objects.enumerated() {
            offsets.append(file.utf8.count)
            file += "\(number + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = file.utf8.count
        file += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { file += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        file += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return Data(file.utf8)
    }

    /// Writes ``data(_:)`` of `objects` to `path`.
    public static func write(_ objects: [String], to path: String) throws {
        try data(objects).write(to: URL(fileURLWithPath: path))
    }
}
