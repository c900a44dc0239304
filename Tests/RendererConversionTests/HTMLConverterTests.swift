import Foundation
import RendererProvider
import TestSupport
import Testing

@testable import RendererConversion

/// HTML printed by headless Chromium with no network: the page's words in the PDF
/// (pdftotext); what it asks of the network (a stylesheet, a picture, `fetch`, loopback and
/// named hosts) never reaches a loopback HTTP server that counts requests, though plain
/// headless Chromium printing the same page is seen to reach it; a machine file in an
/// iframe is not shown; a script that never ends fails the page within its limit and
/// leaves no Chromium running.
@Suite(.serialized) struct HTMLConverterTests {
    /// A page of known words that asks `port` for a stylesheet, a picture and a fetch, and
    /// shows /etc/hostname in an iframe.
    static func page(askingPort port: Int) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><title>Report</title>
        <link rel="stylesheet" href="http://127.0.0.1:\(port)/style.css"></head>
        <body><h1>Quarterly Report Heading</h1><p>Body paragraph in Greek: Καλημέρα.</p>
        <img src="http://127.0.0.1:\(port)/picture.png" alt="">
        <iframe src="file:///etc/hostname"></iframe>
        <script>fetch("http://127.0.0.1:\(port)/fetched").catch(() => {}); fetch("http://example.org/").catch(() => {});</script>
        </body></html>
        """
    }

    @Test func aPageIsPrintedWithNothingFetched() async throws {
        let counter = try await LoopbackHTTPCounter.start()
        defer { counter.stop() }
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("report.html")
        try Data(Self.page(askingPort: counter.port).utf8).write(to: input)

        // Plain headless Chromium printing the page over HTTP reaches the counter: the page asks.
        let plain = try LoopbackPage(html: try Data(contentsOf: input))
        let printedPlainly = try await Tool.run("chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(folder.appendingPathComponent("plain").path)", "--no-pdf-header-footer",
            "--print-to-pdf=\(folder.appendingPathComponent("plain.pdf").path)", plain.url,
        ])
        plain.stop()
        #expect(printedPlainly.status == 0, "\(printedPlainly.stderr)")
        let asked = try counter.requests()
        #expect(asked > 0, "plain Chromium asked nothing of the counter: the test would prove nothing")

        let output = folder.appendingPathComponent("report.pdf").path
        try HTMLConverter().convert(input.path, to: output)
        let text = Fixtures.normalizedWhitespace(try await Tool.run("pdftotext", [output, "-"]).text)
        #expect(text.contains("Quarterly Report Heading") && text.contains("Καλημέρα"), "\(text)")
        let hostname = try String(contentsOfFile: "/etc/hostname", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(hostname.isEmpty || !text.contains(hostname), "the machine's file is in the PDF: \(text)")
        #expect(try counter.requests() == asked, "the converter's Chromium reached the network")
    }

    @Test func aPageThatNeverEndsFailsAloneAndLeavesNoChromium() async throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let looping = folder.appendingPathComponent("loop.html")
        try Data("<!doctype html><p>Never printed</p><script>while (true) {}</script>".utf8).write(to: looping)
        let existing = folder.appendingPathComponent("kept.pdf").path
        try Data("an earlier file".utf8).write(to: URL(fileURLWithPath: existing))
        // Chromium works in this test's folder, whose path names its processes.
        let converter = HTMLConverter(configuration: HTMLConverter.Configuration(workFolder: folder))
        #expect { try converter.convert(looping.path, to: existing, timeLimit: .seconds(3)) } throws: { ($0 as? RendererError)?.code == .limitExceeded }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an earlier file")
        let left = try await Tool.run("pgrep", ["-f", folder.path]).text
        #expect(left.isEmpty, "Chromium processes left: \(left)")
        #expect { try HTMLConverter().convert(Fixtures.path("text.pdf"), to: existing) } throws: { ($0 as? RendererError)?.code == .unsupportedFormat }
        #expect { try HTMLConverter().convert(folder.appendingPathComponent("missing.html").path, to: existing) } throws: { ($0 as? RendererError)?.code == .fileNotFound }
    }

    /// An HTML document without a name is told by its first bytes, as a browser tells one;
    /// XML that is not XHTML, a PDF, text and a tag that only starts like `html` are not.
    @Test func anHTMLDocumentIsToldByItsBytes() throws {
        let folder = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(String, Bool)] = [
            ("<!doctype html><p>x", true), ("\u{FEFF}  \n<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">", true), ("<html lang=en>", true),
            ("<HEAD><title>t</title>", true), ("<body>", true),
            ("<?xml version=\"1.0\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\">", true),
            ("<?xml version=\"1.0\"?><office:document office:mimetype=\"application/vnd.oasis.opendocument.text\">", false),
            ("<htmlx>", false), ("%PDF-1.7 <html>", false), ("plain words <html>", false), ("", false),
        ]
        for (index, (text, expected)) in cases.enumerated() {
            let file = folder.appendingPathComponent("\(index)")
            try Data(text.utf8).write(to: file)
            #expect(HTMLConverter.isHTML(sniffing: file.path) == expected, "\(text)")
        }
        #expect(!HTMLConverter.isHTML(sniffing: folder.appendingPathComponent("missing").path))
    }

    /// The page server answers its own address alone (Python's urllib as the client).
    @Test func thePageServerAnswersItsAddressAlone() async throws {
        let page = try LoopbackPage(html: Data("<p>only this</p>".utf8))
        defer { page.stop() }
        let fetch = """
            import sys, urllib.request, urllib.error
            try:
                print(urllib.request.urlopen(sys.argv[1]).status, urllib.request.urlopen(sys.argv[1]).read().decode())
            except urllib.error.HTTPError as error:
                print(error.code)
            """
        #expect(try await Tool.run("python3", ["-c", fetch, page.url]).text == "200 <p>only this</p>\n")
        for other in ["/", "/etc/passwd", "/" + UUID().uuidString + ".html", page.url.replacingOccurrences(of: "http://127.0.0.1:\(page.port)", with: "") + "?x"] {
            let status = try await Tool.run("python3", ["-c", fetch, "http://127.0.0.1:\(page.port)\(other)"]).text
            #expect(status == "404\n", "\(other): \(status)")
        }
    }
}
