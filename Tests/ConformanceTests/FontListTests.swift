import Foundation
import RendererProvider
import Testing
import TestSupport

/// Listing a document's fonts, on every backend, with Poppler's `pdffonts` as the witness:
/// the same fonts, in the same order, with the same kind, embedding and subset tag.
@Suite("Fonts, on every backend")
struct FontListTests {
    /// fonts.pdf holds a font in each place a list must look (page resources, a form, an
    /// annotation's appearance) and of each kind; font-loops.pdf's resources name
    /// themselves, which the walk must leave without a hang or a font twice.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func fontsAreThoseThatPdffontsLists(backend: String) async throws {
        for path in [Fixtures.path("fonts.pdf"), Fixtures.path("font-loops.pdf"), Fixtures.path("text.pdf"), Fixtures.samplePath] {
            let fonts = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).fonts()
            #expect(await fonts == (try Self.pdffonts(path)), "\(path)")
        }
        let kinds = try Fixtures.open("fonts.pdf", backend: backend).fonts().map(\.kind)
        #expect(kinds == [.type1, .trueType, .cidTrueType, .type3, .type1, .type1])
    }

    /// The fonts of an encrypted document open with its password; a format without font
    /// dictionaries (EPUB, through MuPDF) says `unsupported`.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func encryptedDocumentsAndOtherFormats(backend: String) throws {
        let encrypted = try Fixtures.open("encrypted.pdf", backend: backend, password: "user-secret").fonts()
        #expect(encrypted == (try Fixtures.open("text.pdf", backend: backend).fonts()))
        #expect(!encrypted.isEmpty)
        guard Fixtures.engineID(backend) == "mupdf" else { return }
        let book = try Fixtures.conformanceRegistry.open(.file(Fixtures.path("book.epub")), renderer: .id(backend))
        #expect { try book.fonts() } throws: { ($0 as? RendererError)?.code == .unsupported }
    }

    @Test func aSubsetIsToldByItsTag() {
        #expect(FontInfo(name: "ABCDEF+Times", kind: .type1, isEmbedded: true).isSubset)
        for name in ["Times", "ABCDE+Times", "ABCDEf+Times", "ABCDEFG+Times", "ABCDEF-Times", "ÄBCDEF+Times", nil] {
            #expect(!FontInfo(name: name, kind: .type1, isEmbedded: true).isSubset, "\(name ?? "nil")")
        }
    }

    /// What `pdffonts` prints for `path`, read by the columns its header's dashes mark.
    static func pdffonts(_ path: String) async throws -> [FontInfo] {
        let lines = try await Tool.run("pdffonts", [path]).text.split(separator: "\n").map(String.init)
        guard lines.count >= 2 else { return [] }
        let columns = lines[1].split(separator: " ").map { dashes in
            let offset = lines[1].distance(from: lines[1].startIndex, to: dashes.startIndex)
            return offset..<offset + dashes.count
        }
        return lines.dropFirst(2).map { line in
            let characters = Array(line)
            func cell(_ index: Int) -> String {
                let range = columns[index].clamped(to: 0..<characters.count)
                return String(characters[range]).trimmingCharacters(in: .whitespaces)
            }
            let type = cell(1)
            let kind: FontInfo.Kind =
                type.hasPrefix("CID TrueType") ? .cidTrueType : type.hasPrefix("CID Type 0") ? .cidType0
                : type.hasPrefix("TrueType") ? .trueType : type == "Type 3" ? .type3 : .type1
            let name = cell(0)
            return FontInfo(name: name == "[none]" ? nil : name, kind: kind, isEmbedded: cell(3) == "yes")
        }
    }
}
