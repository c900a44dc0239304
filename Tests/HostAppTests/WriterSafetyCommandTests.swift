import Foundation
import ProcessSpawning
import RendererProvider
import Testing
import TestSupport

/// The command line against what a stranger's file can hold and against other writers: XML
/// that names a local file (XFDF annotations, XFDF form values, a PDF's XMP packet) never
/// brings that file's bytes into an answer, an error or a saved file; editors of one file
/// started at once each keep their change; and readers sharing one sync store folder never
/// send each other's queued changes.
@Suite struct WriterSafetyCommandTests {
    /// A scratch folder with a secret file outside any document.
    final class Scratch: Sendable {
        let folder = NSTemporaryDirectory() + "writer-safety-\(UUID().uuidString)"
        let secret = "SECRET-" + UUID().uuidString
        var secretPath: String { folder + "/secret.txt" }

        init() throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try secret.write(toFile: secretPath, atomically: true, encoding: .utf8)
        }

        /// A copy of the fixture `name` in the folder.
        func copy(_ name: String) throws -> String {
            let path = folder + "/" + UUID().uuidString + "-" + name
            try FileManager.default.copyItem(atPath: Fixtures.path(name), toPath: path)
            return path
        }

        /// The text of an XML document with an entity naming the secret file, `body` using it as `&s;`.
        func hostile(_ prologue: String = "", _ body: String) -> String {
            prologue + #"<!DOCTYPE x [<!ENTITY s SYSTEM "file://\#(secretPath)">]>"# + body
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }
    }

    func hostapp(_ arguments: [String]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments)
    }

    @Test(arguments: ["mupdf", "poppler"])
    func xmlInputsNeverReadALocalFile(backend: String) async throws {
        let scratch = try Scratch()
        // XFDF annotations.
        let pdf = try scratch.copy("text.pdf")
        let original = try Data(contentsOf: URL(fileURLWithPath: pdf))
        let annotations = scratch.folder + "/notes.xfdf"
        try scratch.hostile(
            #"<?xml version="1.0"?>"#,
            #"<xfdf xmlns="http://ns.adobe.com/xfdf/"><annots><text page="0" rect="10,10,30,30" name="n"><contents>&s;</contents></text></annots></xfdf>"#
        ).write(toFile: annotations, atomically: true, encoding: .utf8)
        let imported = try await hostapp(["--renderer", backend, "annotations", "import", pdf, annotations])
        #expect(imported.status != 0 && imported.stderr.contains("document type"), "\(imported.stderr)")
        #expect(!imported.stderr.contains(scratch.secret) && !imported.text.contains(scratch.secret))
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)) == original)

        // XFDF form values.
        let form = try scratch.copy("forms.pdf")
        let values = scratch.folder + "/values.xfdf"
        try scratch.hostile("", #"<xfdf xmlns="http://ns.adobe.com/xfdf/"><fields><field name="name"><value>&s;</value></field></fields></xfdf>"#)
            .write(toFile: values, atomically: true, encoding: .utf8)
        let filled = try await hostapp(["--renderer", backend, "forms", "fill", form, "--values", values, "-o", scratch.folder + "/filled.pdf"])
        #expect(filled.status != 0 && !filled.stderr.contains(scratch.secret) && !filled.text.contains(scratch.secret), "\(filled.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.folder + "/filled.pdf"))
    }

    @Test func aHostileXMPPacketIsRefusedNotCopied() async throws {
        let scratch = try Scratch()
        let packet = scratch.hostile(
            #"<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>"#,
            #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
                + #"<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:source>&s;</dc:source></rdf:Description>"#
                + #"</rdf:RDF></x:xmpmeta><?xpacket end="w"?>"#)
        // The fixture's own packet replaced by the hostile one, by pypdf (an independent writer).
        let hostilePDF = scratch.folder + "/hostile-xmp.pdf"
        let script = """
            import sys
            from pypdf import PdfWriter
            from pypdf.generic import NameObject, StreamObject
            writer = PdfWriter(clone_from=sys.argv[1])
            stream = StreamObject()
            stream.set_data(sys.argv[3].encode())
            stream[NameObject("/Type")] = NameObject("/Metadata")
            stream[NameObject("/Subtype")] = NameObject("/XML")
            writer._root_object[NameObject("/Metadata")] = writer._add_object(stream)
            writer.write(sys.argv[2])
            """
        let made = try await Tool.run("python3", ["-c", script, Fixtures.path("metadata-xmp.pdf"), hostilePDF, packet])
        try #require(made.status == 0, "\(made.stderr)")
        #expect(try await Tool.run("qpdf", ["--show-object=trailer", hostilePDF]).status == 0)
        for backend in ["mupdf", "poppler"] {
            let output = scratch.folder + "/out-\(backend).pdf"
            let set = try await hostapp(["--renderer", backend, "info", hostilePDF, "--set", "title=X", "-o", output])
            #expect(set.status != 0 && set.stderr.contains("document type"), "\(backend): \(set.stderr)")
            #expect(!set.stderr.contains(scratch.secret) && !set.text.contains(scratch.secret))
            #expect(!FileManager.default.fileExists(atPath: output))
        }
    }

    /// Sixteen `hostapp annotations add` on one file at once: each takes its turn (the file's
    /// write lock), so every note that was acknowledged (exit 0) is in the file.
    @Test(arguments: ["mupdf", "poppler"])
    func concurrentEditorsOfOneFileEachKeepTheirChange(backend: String) async throws {
        let scratch = try Scratch()
        let pdf = try scratch.copy("text.pdf")
        // All started before any is waited for: sixteen processes at once.
        let editors = try (0..<16).map { index in
            let process = try ChildProcess(HostAppTests.executable, [
                "--renderer", backend, "annotations", "add", pdf, "--page", "1", "--kind", "text", "--rect", "\(10 + index * 20),10,16,16",
                "--contents", "editor \(index)",
            ])
            return (index, process)
        }
        let ends = editors.map { ($0.0, $0.1.wait()) }
        let acknowledged = Set(ends.filter { $0.1 == .exited(0) }.map(\.0))
        #expect(acknowledged.count == 16, "\(ends)")
        // Read back by the other engine and by qpdf.
        let other = backend == "mupdf" ? "poppler" : "mupdf"
        let listed = try await hostapp(["--renderer", other, "annotations", "list", pdf, "--json"])
        let notes = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        let kept = Set(notes.compactMap { ($0["contents"] as? String)?.split(separator: " ").last.flatMap { Int($0) } })
        #expect(acknowledged.isSubset(of: kept), "kept \(kept.sorted()) of \(acknowledged.sorted())")
        #expect(try await Tool.run("qpdf", ["--check", pdf]).status == 0)
    }

    /// A writer that saves while holding the lock keeps the new file locked until it lets
    /// go: no other writer can lock (and so read and overwrite) the file it just renamed into
    /// place while it still works on it. This once let a command-line edit be lost: the
    /// server read the version of a file another writer had already replaced.
    @Test(arguments: ["mupdf", "poppler"])
    func theLockFollowsTheFileItsHolderSaves(backend: String) throws {
        let scratch = try Scratch()
        let pdf = try scratch.copy("text.pdf")
        let holder = try #require(try FileWriteLock.acquire(pdf, timeout: 5))
        let document = try Fixtures.registry.open(.file(pdf), renderer: .id(backend))
        _ = try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20)))
        try document.save(to: pdf)
        do {
            try FileWriteLock.holding(pdf, timeout: 0.2) {}
            Issue.record("another writer locked the new file while its writer still held the lock")
        } catch let error as RendererError {
            #expect(error.code == .conflict, "\(error)")
        }
        holder.release()
        #expect(try FileWriteLock.holding(pdf, timeout: 5) { true })
    }

    /// A writer that holds the file's lock past the wait makes another fail `conflict`,
    /// naming the file; once it lets go, the other gets its turn.
    @Test func aWriterWaitsForTheLockThenFailsWithConflict() throws {
        let scratch = try Scratch()
        let pdf = try scratch.copy("text.pdf")
        let holder = try #require(try FileWriteLock.acquire(pdf, timeout: 5))
        do {
            try FileWriteLock.holding(pdf, displayName: "text.pdf", timeout: 0.2) {}
            Issue.record("a second writer got the lock while the first held it")
        } catch let error as RendererError {
            #expect(error.code == .conflict && error.message.contains("text.pdf"), "\(error)")
        }
        holder.release()
        #expect(try FileWriteLock.holding(pdf, timeout: 5) { true })
    }
}
