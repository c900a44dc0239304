import Foundation
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// Signature fields listed through each backend, against pdfsig and `mutool sign -v`, which
/// verify the fixture's real (self-signed) signature.
@Suite("Signatures, on every backend")
struct SignatureTests {
    /// pdfsig's signatures: each field's name, whether it is signed, its ranges as (offset,
    /// length) and whether it says the whole document is signed.
    struct PdfsigSignature: Equatable {
        var name: String
        var isSigned = true
        var ranges: [SignatureField.ByteRange] = []
        var wholeDocument = false
    }

    static func pdfsig(_ path: String) async throws -> [PdfsigSignature] {
        let result = try await Tool.run("pdfsig", ["-nocert", path])
        var signatures: [PdfsigSignature] = []
        for line in result.text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let name = line.firstMatch(of: /^- Signature Field Name: (.+)$/)?.1 {
                signatures.append(PdfsigSignature(name: String(name)))
            } else if line.contains("is not signed") {
                signatures[signatures.count - 1].isSigned = false
            } else if line.hasPrefix("- Signed Ranges:") {
                signatures[signatures.count - 1].ranges = line.matches(of: /\[(\d+) - (\d+)\]/).map {
                    SignatureField.ByteRange(offset: Int($0.1)!, length: Int($0.2)! - Int($0.1)!)
                }
            } else if line == "- Total document signed" {
                signatures[signatures.count - 1].wholeDocument = true
            }
        }
        return signatures
    }

    static func seen(_ fields: [SignatureField]) -> [PdfsigSignature] {
        fields.map { PdfsigSignature(name: $0.name, isSigned: $0.isSigned, ranges: $0.byteRanges, wholeDocument: $0.coversWholeFile) }
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aSignedFileIsListedAsPdfsigListsIt(backend: String) async throws {
        let path = Fixtures.path("signed.pdf")
        let fields = try Fixtures.open("signed.pdf", backend: backend).signatureFields()
        #expect(await Self.seen(fields) == (try Self.pdfsig(path)))
        let approval = try #require(fields.first)
        #expect(approval.name == "Approval" && approval.pageIndex == 0 && approval.isSigned && approval.coversWholeFile)
        #expect(approval.signerName == "Fixture Signer" && approval.signingTime == Date(timeIntervalSince1970: 1_710_000_000))
        #expect(approval.reason == "Approval of the fixture" && approval.location == "Test lab" && approval.subFilter == "adbe.pkcs7.detached")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(approval.byteRanges.count == 2 && approval.byteRanges.last.map { $0.offset + $0.length } == size)
        #expect(fields.dropFirst().map(\.name) == ["Review.Witness"] && fields.last?.pageIndex == 0 && fields.last?.isSigned == false)
        #expect(try await Tool.run("mutool", ["sign", "-v", path]).text.contains("The document is unchanged since signing."))
    }

    /// An update appended after signing: the ranges stay, they no longer reach the end.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anUpdateAfterSigningIsSeen(backend: String) async throws {
        let path = Fixtures.path("signed-then-changed.pdf")
        let fields = try Fixtures.open("signed-then-changed.pdf", backend: backend).signatureFields()
        #expect(await Self.seen(fields) == (try Self.pdfsig(path)))
        #expect(fields.first?.isSigned == true && fields.first?.coversWholeFile == false)
        #expect(fields.first?.byteRanges == (try Fixtures.open("signed.pdf", backend: backend).signatureFields().first?.byteRanges))
        #expect(try await Tool.run("mutool", ["sign", "-v", path]).text.contains("there have been edits since signing"))
    }

    /// An annotation saved incrementally keeps the signed bytes (pdfsig still finds the
    /// signature valid) and is an update after signing; a rewrite breaks the signature.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anIncrementalSaveKeepsTheSignatureValid(backend: String) async throws {
        let path = try AnnotationSamples.scratchCopy(of: Fixtures.path("signed.pdf"))
        let document = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend))
        try await document.addAnnotation(Annotation(kind: .text, pageIndex: 0, rect: PageRect(x: 400, y: 100, width: 20, height: 20), contents: "after signing"))
        try document.save(mode: .incremental)
        let fields = try await Fixtures.conformanceRegistry.open(.file(path), renderer: .id(backend)).signatureFields()
        #expect(fields.first?.isSigned == true && fields.first?.coversWholeFile == false)
        let checked = try await Tool.run("pdfsig", ["-nocert", path]).text
        #expect(checked.contains("Signature is Valid.") && checked.contains("Not total document signed"), "\(checked)")
    }

    /// Opened from memory or from a stream, a document knows its size: the ranges are
    /// judged as they are for a file.
    @Test(arguments: Fixtures.backendIDs)
    func memoryAndStreamSourcesSeeTheSameSignatures(backend: String) throws {
        let path = Fixtures.path("signed.pdf")
        let fromFile = try Fixtures.open("signed.pdf", backend: backend).signatureFields()
        let fromMemory = try Fixtures.conformanceRegistry.open(.memory(try Data(contentsOf: URL(fileURLWithPath: path))), renderer: .id(backend))
        let fromStream = try Fixtures.conformanceRegistry.open(.stream(try StreamSourceTests.stream(path)), renderer: .id(backend))
        #expect(try fromMemory.signatureFields() == fromFile && fromStream.signatureFields() == fromFile)
        #expect(fromFile.first?.coversWholeFile == true)
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aLoopInTheFieldTreeEndsTheWalk(backend: String) async throws {
        let fields = try Fixtures.open("field-loop.pdf", backend: backend).signatureFields()
        #expect(fields == [SignatureField(name: "Loop.Inner.Leaf", pageIndex: 0, isSigned: false)])
        #expect(await Self.seen(fields) == (try Self.pdfsig(Fixtures.path("field-loop.pdf"))))
    }

    /// signed.pdf with the signature's /ByteRange and its widget's /F rewritten (pypdf) to
    /// 10^30, a number the engines read as a real no integer holds: the fields are listed,
    /// the ranges are not taken as covering the file, and nothing stops the process.
    @Test(arguments: Fixtures.conformanceBackendIDs)
    func anOutOfRangeNumberIsNoCrash(backend: String) async throws {
        let made = try await PypdfEdit.copy(of: Fixtures.path("signed.pdf"), named: "huge-numbers.pdf", """
            huge = NumberObject(10 ** 30)
            for field in writer._root_object["/AcroForm"]["/Fields"]:
                field = field.get_object()
                if "/V" in field:
                    field["/V"].get_object()[NameObject("/ByteRange")] = ArrayObject([NumberObject(0), huge, huge, huge])
                    field[NameObject("/F")] = huge
            """)
        defer { made.remove() }
        let document = try await Fixtures.conformanceRegistry.open(.file(made.path), renderer: .id(backend))
        let fields = try document.signatureFields()
        #expect(fields.count == 2 && fields.first?.isSigned == true)
        #expect(fields.first?.coversWholeFile == false)
        let codes = try document.verifySignatures(trust: TrustAnchors()).first?.reasons.map(\.code)
        #expect(codes?.contains(.malformedRanges) == true, "\(codes ?? [])")
    }

    @Test(arguments: Fixtures.conformanceBackendIDs)
    func aFileWithoutAFormHasNone(backend: String) throws {
        #expect(try Fixtures.open("text.pdf", backend: backend).signatureFields() == [])
        #expect(try Fixtures.open("annotations.pdf", backend: backend).signatureFields() == [])
    }

    @Test func coverageNeedsBothEndsAndOrder() {
        typealias Range = SignatureField.ByteRange
        #expect(SignatureField.rangesCoverWholeFile([Range(offset: 0, length: 10), Range(offset: 20, length: 80)], fileSize: 100))
        #expect(!SignatureField.rangesCoverWholeFile([Range(offset: 0, length: 10), Range(offset: 20, length: 70)], fileSize: 100))
        #expect(!SignatureField.rangesCoverWholeFile([Range(offset: 5, length: 5), Range(offset: 20, length: 80)], fileSize: 100))
        #expect(!SignatureField.rangesCoverWholeFile([Range(offset: 0, length: 30), Range(offset: 20, length: 80)], fileSize: 100))
        #expect(!SignatureField.rangesCoverWholeFile([], fileSize: 100))
    }
}
