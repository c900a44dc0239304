import Foundation
import RendererProvider
import RendererProviderMetadata
import Testing
import TestSupport

/// Metadata written through each backend into the Info dictionary and the XMP packet, saved
/// and read back by both engines, pypdf, pdfinfo and qpdf.
@Suite("Metadata writing, on every backend")
struct MetadataWritingTests {
    /// Every field, with text outside PDFDocEncoding.
    static let metadata = DocumentMetadata(
        title: "Relevé — 北京 report", author: "Ada Lovelace", subject: "Metadata writing", keywords: "pdf, xmp",
        creator: "MetadataWritingTests", producer: "renderer-provider",
        creationDate: Date(timeIntervalSince1970: 1_710_000_000), modificationDate: Date(timeIntervalSince1970: 1_735_787_045))

    /// What pypdf reads of a file's Info dictionary and XMP packet.
    struct PypdfView: Decodable {
        var info: [String: String]
        var xmp: [String: String?]?
    }

    static func pypdf(_ path: String, password: String = "") async throws -> PypdfView {
        let script = """
            import json, sys, pypdf
            reader = pypdf.PdfReader(sys.argv[1])
            if reader.is_encrypted:
                reader.decrypt(sys.argv[2])
            info = {key: str(value) for key, value in (reader.metadata or {}).items()}
            x = reader.xmp_metadata
            xmp = None
            if x is not None:
                date = lambda d: d.strftime("%Y-%m-%dT%H:%M:%S") if d else None
                xmp = {"title": (x.dc_title or {}).get("x-default"), "author": "; ".join(x.dc_creator or []) or None,
                       "subject": (x.dc_description or {}).get("x-default"), "keywords": x.pdf_keywords,
                       "creator": x.xmp_creator_tool, "producer": x.pdf_producer,
                       "created": date(x.xmp_create_date), "modified": date(x.xmp_modify_date)}
            print(json.dumps({"info": info, "xmp": xmp}))
            """
        let result = try await Tool.run("python3", ["-c", script, path, password])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONDecoder().decode(PypdfView.self, from: result.stdout)
    }

    /// pdfinfo's `Key: value` lines, dates in ISO 8601.
    static func pdfinfo(_ path: String, password: String? = nil) async throws -> [String: String] {
        let result = try await Tool.run("pdfinfo", ["-isodates"] + (password.map { ["-opw", $0] } ?? []) + [path])
        #expect(result.status == 0, "\(result.stderr)")
        var fields: [String: String] = [:]
        for line in result.text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    static func qpdfChecks(_ path: String, password: String? = nil) async throws -> Bool {
        try await Tool.run("qpdf", (password.map { ["--password=\($0)"] } ?? []) + ["--check", path]).status == 0
    }

    @Test(arguments: Fixtures.conformanceBackendIDs, [SaveMode.incremental, .rewrite])
    func everyToolReadsWhatWasWritten(backend: String, mode: SaveMode) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("text.pdf"))
        let output = path + ".out.pdf"
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try document.setMetadata(Self.metadata)
        #expect(try document.info().metadata == Self.metadata, "read back before saving")
        #expect(try document.xmpMetadata() == Self.metadata)
        #expect(document.hasUnsavedChanges)
        try document.save(to: output, mode: mode)

        for reader in Fixtures.conformanceBackendIDs {
            let reopened = try await Fixtures.conformanceRegistry.open(.file(output), renderer: .id(reader))
            #expect(try reopened.info().metadata == Self.metadata, "\(backend) wrote, \(reader) read")
            #expect(try reopened.xmpMetadata() == Self.metadata, "\(backend) wrote, \(reader) read")
        }
        let info = try await Self.pdfinfo(output)
        #expect(info["Title"] == Self.metadata.title && info["Author"] == "Ada Lovelace" && info["Producer"] == "renderer-provider")
        #expect(info["CreationDate"] == "2024-03-09T16:00:00Z" && info["ModDate"] == "2025-01-02T03:04:05Z")
        #expect(info["Metadata Stream"] == "yes")
        let pypdf = try await Self.pypdf(output)
        #expect(pypdf.info["/Title"] == Self.metadata.title && pypdf.info["/Keywords"] == "pdf, xmp")
        #expect(pypdf.xmp?["title"] == Self.metadata.title && pypdf.xmp?["author"] == "Ada Lovelace")
        #expect(pypdf.xmp?["subject"] == "Metadata writing" && pypdf.xmp?["keywords"] == "pdf, xmp")
        #expect(pypdf.xmp?["creator"] == "MetadataWritingTests" && pypdf.xmp?["producer"] == "renderer-provider")
        #expect(pypdf.xmp?["created"] == "2024-03-09T16:00:00" && pypdf.xmp?["modified"] == "2025-01-02T03:04:05")
        #expect(try await Self.qpdfChecks(output))
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let saved = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(saved.starts(with: original) == (mode == .incremental))
    }

    /// A packet's other properties stay; the facts' old forms (elements and attributes, in
    /// several descriptions) go.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func theXMPPacketKeepsItsOtherProperties(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("metadata-xmp.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        #expect(try document.xmpMetadata() == DocumentMetadata(title: "Old title", author: "Old author", creator: "make-fixtures.js", producer: "mutool run"))
        var metadata = try document.info().metadata
        metadata.title = "New title"
        metadata.author = "New author"
        metadata.creator = "New tool"
        try document.setMetadata(metadata)
        try document.save()

        let packet = try #require(try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).xmpPacket())
        let text = String(decoding: packet, as: UTF8.self)
        for kept in ["Fixture rights", "<pdfaid:part>2</pdfaid:part>", "renderer-provider", "http://example.org/ns/fixture/"] {
            #expect(text.contains(kept), "\(kept) in \(text)")
        }
        for gone in ["Old title", "Old author", "make-fixtures.js"] {
            #expect(!text.contains(gone), "\(gone) in \(text)")
        }
        #expect(text.hasPrefix("<?xpacket begin="))
        #expect(try XMP.metadata(in: packet) == metadata)
        let pypdf = try await Self.pypdf(path)
        #expect(pypdf.xmp?["title"] == "New title" && pypdf.xmp?["author"] == "New author" && pypdf.xmp?["creator"] == "New tool")
        #expect(pypdf.xmp?["producer"] == "mutool run" && pypdf.info["/Producer"] == "mutool run")
        #expect(try await Self.qpdfChecks(path))
    }

    /// A nil or empty field is removed from the Info dictionary and the packet alike.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func removedFieldsAreGoneEverywhere(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("metadata.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        var metadata = try document.info().metadata
        metadata.author = nil
        metadata.keywords = ""
        metadata.creationDate = nil
        try document.setMetadata(metadata)
        try document.save()

        let reopened = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        let read = try reopened.info()
        #expect(read.author == nil && read.keywords == nil && read.creationDate == nil)
        #expect(read.title == "Fixture Metadata: ünïcødé" && read.subject == "Renderer fixtures")
        #expect(try reopened.xmpMetadata()?.title == "Fixture Metadata: ünïcødé")
        let info = try await Self.pdfinfo(path)
        #expect(info["Author"] == nil && info["Keywords"] == nil && info["CreationDate"] == nil && info["Title"] == "Fixture Metadata: ünïcødé")
        let pypdf = try await Self.pypdf(path)
        #expect(pypdf.info["/Author"] == nil && pypdf.xmp?["author"] == .some(nil) && pypdf.xmp?["keywords"] == .some(nil))
    }

    /// An encrypted file is written encrypted; one whose permissions forbid changes is
    /// refused unless opened with the owner password, and nothing changes.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func encryptedFilesStayEncryptedAndKeepTheirPermissions(backend: String) async throws {
        let restricted = try AnnotationSamples.scratchCopy(of: Fixtures.path("restricted.pdf"))
        let open = try await Fixtures.conformanceRegistry.open(.file(restricted), renderer: .id(backend))
        try open.setMetadata(DocumentMetadata(title: "Restricted, retitled"))
        try open.save()
        #expect(try await Self.pdfinfo(restricted)["Encrypted"]?.hasPrefix("yes") == true)
        #expect(try await Fixtures.conformanceRegistry.open(.file(restricted), renderer: .id(backend)).info().title == "Restricted, retitled")
        #expect(try await Self.pypdf(restricted).xmp?["title"] == "Restricted, retitled")

        let encrypted = try AnnotationSamples.scratchCopy(of: Fixtures.path("encrypted.pdf"))
        let before = try Data(contentsOf: URL(fileURLWithPath: encrypted))
        let asUser = try await Fixtures.conformanceRegistry.open(.file(encrypted), password: "user-secret", renderer: .id(backend))
        let refusal = #expect(throws: RendererError.self) { try asUser.setMetadata(DocumentMetadata(title: "no")) }
        #expect(refusal?.code == .notPermitted && refusal?.message.contains("owner password") == true)
        #expect(!asUser.hasUnsavedChanges)
        #expect(try asUser.info().title != "no")

        let asOwner = try await Fixtures.conformanceRegistry.open(.file(encrypted), password: "owner-secret", renderer: .id(backend))
        try asOwner.setMetadata(DocumentMetadata(title: "Retitled by the owner"))
        try asOwner.save()
        #expect(try Data(contentsOf: URL(fileURLWithPath: encrypted)) != before)
        let reread = try await Fixtures.conformanceRegistry.open(.file(encrypted), password: "user-secret", renderer: .id(backend))
        #expect(try reread.info().title == "Retitled by the owner" && reread.info().isEncrypted)
        #expect(try await Self.pdfinfo(encrypted, password: "owner-secret")["Title"] == "Retitled by the owner")
        #expect(try await Self.qpdfChecks(encrypted, password: "user-secret"))
    }
}

/// XMP packets on their own: reading every form, dates, and refusing what is not XML.
@Suite struct XMPTests {
    @Test func aNewPacketHoldsEveryFact() throws {
        let packet = try XMP.packet(updating: nil, to: MetadataWritingTests.metadata)
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.hasPrefix("<?xpacket begin=") && text.contains("<?xpacket end=\"w\"?>"))
        #expect(try XMP.metadata(in: packet) == MetadataWritingTests.metadata)
        #expect(try XMP.packet(updating: nil, to: DocumentMetadata()).count > 0)
        #expect(try XMP.metadata(in: XMP.packet(updating: nil, to: DocumentMetadata())) == DocumentMetadata())
    }

    @Test func datesInEveryFormXMPAllows() throws {
        func created(_ text: String) throws -> Date? {
            let packet = """
                <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="\(text)"/></rdf:RDF></x:xmpmeta>
                """
            return try XMP.metadata(in: Data(packet.utf8)).creationDate
        }
        #expect(try created("2024-01-02T03:04:05+01:00") == Date(timeIntervalSince1970: 1_704_161_045))
        #expect(try created("2024-01-02T02:04:05.250Z") == Date(timeIntervalSince1970: 1_704_161_045.25))
        #expect(try created("2024-01-02T02:04-00:00") == Date(timeIntervalSince1970: 1_704_161_040))
        #expect(try created("2024-01-02") == Date(timeIntervalSince1970: 1_704_153_600))
        #expect(try created("2024") == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(try created("yesterday") == nil)
        #expect(try created("2024-13-01") == nil)
    }

    @Test func whatIsNotXMPIsRefused() {
        for bad in ["<x:xmpmeta", "not xml at all", "<root/>", "<a><b></a>", "<a>&bogus;</a>"] {
            let error = #expect(throws: RendererError.self, "\(bad)") { try XMP.packet(updating: Data(bad.utf8), to: DocumentMetadata(title: "t")) }
            #expect(error?.code == .damaged)
        }
        for bad in ["<x:xmpmeta", "<a><b></a>"] {
            #expect(throws: RendererError.self, "\(bad)") { try XMP.metadata(in: Data(bad.utf8)) }
        }
    }
}
