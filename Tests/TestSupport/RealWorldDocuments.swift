import Foundation

/// PDFs that no one here wrote: those Debian's packages install under /usr/share/doc.
public enum RealWorldDocuments {
    /// The first `limit` PDFs under /usr/share/doc in path order, gzipped ones unpacked into
    /// `directory`.
    public static func collect(into directory: URL, limit: Int) async throws -> [String] {
        let found = try await Tool.run("find", ["/usr/share/doc", "-name", "*.pdf", "-o", "-name", "*.pdf.gz"])
        var files: [String] = []
        for path in found.text.split(separator: "\n").map(String.init).sorted() where files.count < limit {
            if path.hasSuffix(".gz") {
                let target = directory.appendingPathComponent(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent)
                let unpacked = try await Tool.run("gzip", ["-dc", path])
                guard unpacked.status == 0, unpacked.stdout.starts(with: Data("%PDF".utf8)) else { continue }
                try unpacked.stdout.write(to: target)
                files.append(target.path)
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// Pages of the manuals `make bench` measures, which `make setup` installs: R's reference
    /// manual (r-doc-pdf), Ghostscript's colour-management manual (ghostscript-doc: page 1
    /// has a spot colour, pages 18 and 21 use overprint and blend modes) and xeCJK's manual
    /// (texlive-lang-cjk, CJK text).
    public static let manualPages: [(file: String, page: Int)] = [
        ("/usr/share/R/doc/manual/refman.pdf", 1),
        ("/usr/share/doc/ghostscript/GS9_Color_Management.pdf", 1),
        ("/usr/share/doc/ghostscript/GS9_Color_Management.pdf", 18),
        ("/usr/share/doc/ghostscript/GS9_Color_Management.pdf", 21),
        ("/usr/share/doc/texlive-doc/xelatex/xecjk/xeCJK.pdf", 1),
    ]
}
