import Foundation
import RendererProvider
import TestSupport
import Testing

@testable import RendererConversion

#if canImport(Glibc)
    import Glibc
#endif

/// LibreOffice conversions through one warm instance, against documents a script writes
/// (Tests/Fixtures/make-office-inputs.py): pdftotext finds their words, pdfinfo the page
/// count LibreOffice's own `--convert-to pdf` gives; a linked picture is never fetched (a
/// loopback HTTP server counts the requests, and plain LibreOffice is seen to ask it), nor a
/// macro run (LibreOffice opening the file with macros allowed is seen to run it); a damaged
/// file, a hung and a crashed LibreOffice each fail their file alone (a killed one leaving no
/// socket in /tmp), and the next conversion works. Serialized, through one converter: one LibreOffice at a time is enough
/// for two cores, and each start costs both for a second or two.
@Suite(.serialized) struct OfficeConverterTests {
    /// The converter every test of the suite uses (its LibreOffice is started once, and again
    /// only after the hung and crashed ones).
    static let converter = OfficeConverter()

    /// The inputs, written into a new folder; `link` is the linked picture's address.
    static func inputs(linking link: String) async throws -> URL {
        let folder = try Tool.temporaryDirectory()
        let made = try await Tool.run("/usr/bin/python3", [Fixtures.path("make-office-inputs.py"), folder.path, link])
        #expect(made.status == 0, "\(made.stderr)")
        return folder
    }

    static func pages(_ path: String) async throws -> Int {
        let info = try await Tool.run("pdfinfo", [path]).text
        return info.split(separator: "\n").first { $0.hasPrefix("Pages:") }.flatMap { Int($0.split(separator: " ").last ?? "") } ?? -1
    }

    /// Word, spreadsheet and presentation files (flat and packaged OpenDocument) become the
    /// PDFs LibreOffice makes, all through one instance; a picture linked from a document is
    /// not fetched, where plain LibreOffice, converting the same files, fetches it.
    @Test func officeFilesBecomeThePDFsLibreOfficeMakesWithNothingFetched() async throws {
        let server = try await LoopbackHTTPCounter.start()
        defer { server.stop() }
        let folder = try await Self.inputs(linking: "http://127.0.0.1:\(server.port)/picture.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected: [(name: String, words: [String], theirs: String)] = [
            ("letter.docx", ["Dear Reader of Page One", "Yours Sincerely Page Two"], "letter"), ("budget.xlsx", ["Quarterly Budget", "Rent", "1200"], "budget"),
            ("slides.fodp", ["Opening Slide Title", "Closing Slide Title"], "slides"), ("slides.odp", ["Opening Slide Title", "Closing Slide Title"], "slides"),
            ("linked.docx", ["Document With A Linked Picture"], "linked"),
        ]
        // LibreOffice's own conversion, one process for them all: the page counts, and the
        // proof that the linked picture's fixture is one that asks.
        let own = folder.appendingPathComponent("own")
        let profile = "file://" + folder.appendingPathComponent("own-profile").path
        let direct = try await Tool.run(
            "soffice",
            ["--headless", "-env:UserInstallation=\(profile)", "--convert-to", "pdf", "--outdir", own.path]
                + ["letter.docx", "budget.xlsx", "slides.fodp", "linked.docx"].map { folder.appendingPathComponent($0).path })
        #expect(direct.status == 0, "\(direct.stderr)")
        let asked = try server.requests()
        #expect(asked > 0, "plain LibreOffice did not fetch the linked picture: the test would prove nothing")
        var instance: pid_t?
        for (name, words, theirs) in expected {
            let output = folder.appendingPathComponent(name + ".pdf").path
            try Self.converter.convert(folder.appendingPathComponent(name).path, to: output)
            let text = Fixtures.normalizedWhitespace(try await Tool.run("pdftotext", [output, "-"]).text)
            #expect(words.allSatisfy(text.contains), "\(name): \(text)")
            let (ours, their) = (try await Self.pages(output), try await Self.pages(own.appendingPathComponent(theirs + ".pdf").path))
            #expect(ours == their, "\(name)")
            // One instance served them all.
            #expect(instance == nil || Self.converter.officeGroup == instance, "\(name)")
            instance = Self.converter.officeGroup
        }
        #expect(try await Self.pages(folder.appendingPathComponent("letter.docx.pdf").path) == 2)
        #expect(try server.requests() == asked, "the converter's LibreOffice fetched the linked picture")
    }

    /// What an upload without a name is, from its bytes: each fixture's kind, an OpenDocument
    /// package, an OLE2 file, RTF; a PDF, a picture and ZIP noise are none.
    @Test func anOfficeDocumentIsToldByItsBytes() async throws {
        let folder = try await Self.inputs(linking: "http://127.0.0.1:9/none.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Data([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504)).write(to: URL(fileURLWithPath: path("ole")))
        try Data("{\\rtf1\\ansi Hello}".utf8).write(to: URL(fileURLWithPath: path("rtf")))
        try Data("PK\u{3}\u{4}".utf8 + Data(repeating: 7, count: 400)).write(to: URL(fileURLWithPath: path("zip")))
        try FileManager.default.copyItem(atPath: path("slides.odp"), toPath: path("package"))
        let expected: [(String, String?)] = [
            (path("letter.docx"), "docx"), (path("budget.xlsx"), "xlsx"), (path("slides.fodp"), "fodp"), (path("broken.docx"), "docx"),
            (path("package"), "odp"), (path("ole"), "doc"), (path("rtf"), "rtf"), (path("zip"), nil),
            (Fixtures.path("text.pdf"), nil), (Fixtures.path("image.png"), nil),
        ]
        for (file, kind) in expected { #expect(OfficeConverter.documentExtension(sniffing: file) == kind, "\(file)") }
    }

    /// A document's macro, bound to its loading, is never run: LibreOffice opening the same
    /// file in a window with macros allowed runs it (the file it writes appears), the
    /// converter converts the document without running it.
    @Test func aDocumentsMacroIsNeverRun() async throws {
        let folder = try await Self.inputs(linking: "http://127.0.0.1:9/none.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("macro.odt").path, ran = folder.appendingPathComponent("macro-ran").path
        let witness = try await Tool.run(
            "/usr/bin/python3", ["-c", Self.openingWithMacrosAllowed, document, folder.appendingPathComponent("witness-profile").path])
        #expect(FileManager.default.fileExists(atPath: ran), "LibreOffice with macros allowed did not run the macro: the test would prove nothing. \(witness.stderr)")
        try? FileManager.default.removeItem(atPath: ran)
        let output = folder.appendingPathComponent("macro.pdf").path
        try Self.converter.convert(document, to: output)
        #expect(try await Tool.run("pdftotext", [output, "-"]).text.contains("Document With A Macro"))
        #expect(!FileManager.default.fileExists(atPath: ran), "the converter's LibreOffice ran the document's macro")
    }

    /// A Python program that opens the document `argv[1]` in a LibreOffice of its own
    /// (profile `argv[2]`) as a person would with macros allowed: in a window (headless, but
    /// not hidden), every macro run without asking; then closes it and ends LibreOffice:
    /// `soffice` is a script that starts `soffice.bin`, so it runs in a session of its own,
    /// whose whole process group is killed, and the sockets it made in /tmp are removed.
    static let openingWithMacrosAllowed = """
        import hashlib, os, signal, subprocess, sys, time, uno
        from com.sun.star.beans import PropertyValue
        def prop(name, value):
            p = PropertyValue()
            p.Name, p.Value = name, value
            return p
        document, profile = sys.argv[1], sys.argv[2]
        pipe = "macro-witness-%d" % os.getpid()
        office = subprocess.Popen(["soffice", "--headless", "--norestore", "-env:UserInstallation=" + uno.systemPathToFileUrl(profile),
                                   "--accept=pipe,name=%s;urp;" % pipe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        try:
            local = uno.getComponentContext()
            resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
            for attempt in range(1200):
                try:
                    remote = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
                    break
                except Exception:
                    if office.poll() is not None or attempt == 1199:
                        sys.exit("LibreOffice did not answer")
                    time.sleep(0.1)
            desktop = remote.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", remote)
            loaded = desktop.loadComponentFromURL(uno.systemPathToFileUrl(document), "_blank", 0, (prop("MacroExecutionMode", 4),))
            try:
                loaded.close(True)
            except Exception:
                pass
        finally:
            os.killpg(office.pid, signal.SIGKILL)
            office.wait()
            installation = uno.systemPathToFileUrl(profile)
            single = "SingleOfficeIPC_" + "".join("%x" % b for b in hashlib.md5(installation.encode("utf-16-le")).digest())
            for name in (pipe, single):
                try:
                    os.unlink("/tmp/OSL_PIPE_%d_%s" % (os.getuid(), name))
                except FileNotFoundError:
                    pass
        """

    @Test func damagedHungAndCrashedConversionsFailTheirFileAlone() async throws {
        let folder = try await Self.inputs(linking: "http://127.0.0.1:9/none.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let converter = Self.converter
        let letter = folder.appendingPathComponent("letter.docx").path
        func output(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let existing = output("kept.pdf")
        try Data("an earlier file".utf8).write(to: URL(fileURLWithPath: existing))

        // Damaged: a clear error naming the file alone, the earlier output kept, no partial file.
        #expect { try converter.convert(folder.appendingPathComponent("broken.docx").path, to: existing) } throws: { error in
            let error = error as? RendererError
            return error?.code == .damaged && error?.message.contains(folder.path) == false
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an earlier file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.contains("converting") })
        // Not an office document, or no file: refused before LibreOffice sees it.
        #expect { try converter.convert(Fixtures.path("text.pdf"), to: output("pdf.pdf")) } throws: { ($0 as? RendererError)?.code == .unsupportedFormat }
        #expect { try converter.convert(output("missing.docx"), to: output("missing.pdf")) } throws: { ($0 as? RendererError)?.code == .fileNotFound }

        // Hung: LibreOffice stopped (SIGSTOP) takes past the time limit; the next file goes to a new instance.
        try converter.convert(letter, to: output("one.pdf"))
        let stopped = try #require(converter.officeGroup)
        // The sockets LibreOffice made in /tmp (its pipe and its single-instance pipe), which
        // a killed LibreOffice leaves behind.
        let sockets = converter.officeSockets
        #expect(sockets.count == 2 && sockets.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(sockets)")
        kill(-stopped, SIGSTOP)
        #expect { try converter.convert(letter, to: output("hung.pdf"), timeLimit: .seconds(2)) } throws: { ($0 as? RendererError)?.code == .limitExceeded }
        #expect(!FileManager.default.fileExists(atPath: output("hung.pdf")))
        #expect(sockets.allSatisfy { !FileManager.default.fileExists(atPath: $0) }, "the killed LibreOffice's sockets stayed")
        try converter.convert(letter, to: output("after-hang.pdf"))
        let pagesAfterHang = try await Self.pages(output("after-hang.pdf"))
        #expect(converter.officeGroup != stopped && pagesAfterHang == 2)

        // Crashed mid-conversion: LibreOffice stopped, then killed while the file waits on it.
        let crashing = try #require(converter.officeGroup)
        kill(-crashing, SIGSTOP)
        let killer = Task { try await Task.sleep(for: .milliseconds(500)); kill(-crashing, SIGKILL) }
        #expect { try converter.convert(letter, to: output("crashed.pdf")) } throws: { ($0 as? RendererError)?.code == .engineCrashed }
        _ = await killer.result
        try converter.convert(letter, to: output("after-crash.pdf"))
        #expect(try await Self.pages(output("after-crash.pdf")) == 2)
    }
}

/// A real HTTP server on a free loopback port (Python's `http.server`) that answers 404 to
/// everything and prints a line for each request it gets: what a document's link would reach.
struct LoopbackHTTPCounter {
    let process: RunningProcess
    let port: Int

    static let program = """
        import http.server, sys
        class Counter(http.server.BaseHTTPRequestHandler):
            def log_message(self, format, *args):
                pass
            def handle_one_request(self):
                super().handle_one_request()
                if self.requestline:
                    print("request", self.requestline, flush=True)
            def do_GET(self):
                self.send_error(404)
            do_HEAD = do_OPTIONS = do_PROPFIND = do_GET
        server = http.server.HTTPServer(("127.0.0.1", 0), Counter)
        print("port", server.server_address[1], flush=True)
        server.serve_forever()
        """

    static func start() async throws -> LoopbackHTTPCounter {
        let process = try RunningProcess("python3", ["-c", program])
        _ = await process.waitForOutput { $0.contains("\n") }
        let line = process.output.split(separator: "\n").first { $0.hasPrefix("port ") }
        guard let port = line.flatMap({ Int($0.dropFirst(5)) }) else {
            process.killAtOnce()
            throw LoopbackHTTPCounterError(output: process.output + process.errorOutput)
        }
        return LoopbackHTTPCounter(process: process, port: port)
    }

    /// How many requests it has had.
    func requests() throws -> Int { process.output.split(separator: "\n").filter { $0.hasPrefix("request ") }.count }

    func stop() { process.killAtOnce() }
}

struct LoopbackHTTPCounterError: Error {
    var output: String
}
