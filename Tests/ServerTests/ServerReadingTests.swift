import Foundation
import Hummingbird
import RendererProvider
import RendererServer
import Testing
import TestSupport

/// What a reader asks the server: the documents, page images, text, search, outline,
/// comparisons; and how the server refuses what it must not serve.
@Suite struct ServerReadingTests {
    /// The viewer is ES modules loaded as they are: every module the page's script imports,
    /// and every one they import, is served as JavaScript; a name outside the viewer's files
    /// is not.
    @Test func theViewersModulesAreAllServed() async throws {
        try await ServerHarness().run { client in
            var waiting = ["viewer.js"], served: Set<String> = []
            while let name = waiting.popLast() {
                guard served.insert(name).inserted else { continue }
                let module = try await client.get("/viewer/" + name)
                #expect(module.status == .ok && module.headers[.contentType] == "text/javascript; charset=utf-8", "\(name)")
                let source = String(decoding: module.data, as: UTF8.self)
                waiting += source.matches(of: /from "\.\/([a-z-]+\.js)";/).map { String($0.1) }
            }
            #expect(served.count >= 10 && served.contains("collaboration.js"), "\(served.sorted())")
            // The installable web app: its service worker at the root (so that its scope is the
            // viewer's page), its manifest and icon with their own media types.
            let worker = try await client.get("/service-worker.js")
            #expect(worker.status == .ok && worker.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(String(decoding: worker.data, as: UTF8.self).contains("importScripts(\"/viewer/offline-store.js\")"))
            let store = try await client.get("/viewer/offline-store.js")
            #expect(store.status == .ok && store.headers[.contentType] == "text/javascript; charset=utf-8")
            let manifest = try await client.get("/viewer/manifest.webmanifest")
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            let declared = try #require(manifest.json as? [String: Any])
            #expect(declared["start_url"] as? String == "/" && declared["display"] as? String == "standalone")
            let icon = try await client.get("/viewer/icon.svg")
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/svg+xml")
            for name in ["../Package.swift", "%2e%2e%2fPackage.swift", "viewer.swift", "index.html.orig"] {
                #expect(try await client.get("/viewer/" + name).status == .notFound, "\(name)")
            }
        }
    }

    /// The harness's registry holds Ghostscript too, which reads no metadata: the server
    /// offers the engines its document route and viewer need, and refuses a request that
    /// names Ghostscript as it refuses any engine it does not have.
    @Test func theServerOffersTheEnginesItsViewerNeeds() async throws {
        #expect(Fixtures.registry.renderers.map(\.id).contains("ghostscript"))
        let harness = try ServerHarness()
        try await harness.run { client in
            let health = try await client.get("/api/health").json as? [String: Any]
            let offered = (health?["renderers"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
            #expect(offered == ["mupdf", "poppler"])
            let named = try await client.get(documentPath("text.pdf") + "?renderer=ghostscript")
            #expect(named.status == .badRequest && named.errorCode != nil, "\(named.status)")
            #expect(try await client.get(documentPath("text.pdf") + "?renderer=poppler").status == .ok)
            // `engine`, the parameter's former name, is still read in this release.
            let former = try await client.get(documentPath("text.pdf") + "?engine=poppler")
            #expect(former.status == .ok && (former.json as? [String: Any])?["renderer"] as? String == "poppler", "\(former.status)")
            #expect(try await client.get(documentPath("text.pdf") + "?engine=ghostscript").status == .badRequest)
        }
    }

    /// outline.pdf's "sec12" leads to page index 2 at y 392 (make-fixtures.js).
    @Test(arguments: ["mupdf", "poppler"]) func namedDestinationsAreFound(engine: String) async throws {
        let harness = try ServerHarness(extra: ["outline.pdf"])
        try await harness.run { client in
            let found = try await client.get(documentPath("outline.pdf") + "/destinations/sec12?renderer=\(engine)")
            let destination = try #require(found.json as? [String: Any], "\(found.status)")
            #expect(destination["kind"] as? String == "page" && destination["index"] as? Int == 2)
            #expect(((destination["point"] as? [String: Any])?["y"] as? Double).map { abs($0 - 392) < 1 } == true)
            for missing in ["sec13", "sec12%00x", "%3Cscript%3E"] {
                let answer = try await client.get(documentPath("outline.pdf") + "/destinations/\(missing)?renderer=\(engine)")
                #expect(answer.status == .notFound && answer.errorCode == "not-found", "\(missing): \(answer.status)")
            }
            let long = try await client.get(documentPath("outline.pdf") + "/destinations/" + String(repeating: "x", count: 1001))
            #expect(long.status == .badRequest)
            #expect(try await client.get(documentPath("text.pdf") + "/destinations/sec12").status == .notFound)
        }
    }

    /// fonts.pdf's six fonts, as the library lists them, on either engine; a document that
    /// is not served (an EPUB beside it: the server serves PDFs only) is not found.
    @Test(arguments: ["mupdf", "poppler"]) func fontsAreListed(engine: String) async throws {
        let harness = try ServerHarness(extra: ["fonts.pdf", "book.epub"])
        try await harness.run { client in
            let answer = try await client.get(documentPath("fonts.pdf") + "/fonts?renderer=\(engine)")
            let fonts = try #require(answer.json as? [[String: Any]], "\(answer.status)")
            #expect(fonts.map { $0["name"] as? String ?? "-" } == ["Helvetica", "ABCDEF+Tiny", "GHIJKL+Tiny", "-", "Courier", "Times-Bold"])
            #expect(fonts.map { $0["kind"] as? String ?? "" } == ["type1", "trueType", "cidTrueType", "type3", "type1", "type1"])
            #expect(fonts.map { $0["isSubset"] as? Bool } == [false, true, true, false, false, false])
            for missing in ["book.epub", "missing.pdf"] {
                #expect(try await client.get(documentPath(missing) + "/fonts").status == .notFound, "\(missing)")
            }
        }
    }

    /// attachments.pdf's three files: listed as the library lists them; each a download that
    /// no browser shows as a page of the server (the climbing name saved as its last
    /// component); refused where the settings forbid saving elsewhere.
    @Test func attachmentsAreListedAndDownloaded() async throws {
        let harness = try ServerHarness(extra: ["attachments.pdf"])
        try await harness.run { client in
            let path = documentPath("attachments.pdf") + "/attachments"
            let listed = try #require(try await client.get(path).json as? [[String: Any]])
            #expect(listed.map { $0["name"] as? String } == ["data.csv", "notes.txt", "../../evil.txt"])
            #expect(listed[1]["modificationDate"] as? String == "2025-06-07T08:09:10Z" && listed[2]["pageIndex"] as? Int == 0)
            let notes = try await client.get(path + "/1")
            #expect(notes.status == .ok && notes.data == Data("Notes on the fixture.\n".utf8))
            #expect(notes.headers[.contentType] == "application/octet-stream" && notes.headers[.contentSecurityPolicy] == "sandbox")
            #expect(notes.headers[.init("X-Content-Type-Options")!] == "nosniff")
            let climbing = try await client.get(path + "/2")
            #expect(climbing.headers[.contentDisposition]?.contains("filename=\"evil.txt\"") == true, "\(climbing.headers)")
            for (index, status) in [("3", HTTPResponse.Status.notFound), ("-1", .badRequest), ("x", .badRequest), ("99999999999999999999", .badRequest)] {
                #expect(try await client.get(path + "/" + index).status == status, "\(index)")
            }
        }
        var settings = DocumentSettings()
        settings[.saveTo] = FeatureSetting(available: false, enabled: false)
        try await harness.run(configure: { $0.settings = settings }) { client in
            let refused = try await client.get(documentPath("attachments.pdf") + "/attachments/1")
            #expect(refused.status == .forbidden && refused.errorCode == "not-permitted")
            #expect(try await client.get(documentPath("attachments.pdf") + "/attachments").status == .ok)
        }
    }

    /// images.pdf's 15 images (make-fixtures.sh), listed as the library lists them on either
    /// engine; each a download (the JPEG as image.jpg's bytes, the rest PNG); what a stranger
    /// sends for a number is 400, past the list 404; refused where the settings forbid saving
    /// elsewhere or the PDF forbids copying, the list still given.
    @Test(arguments: ["mupdf", "poppler"]) func imagesAreListedAndDownloaded(engine: String) async throws {
        let harness = try ServerHarness(extra: ["images.pdf"])
        let locked = harness.docs + "/locked.pdf"
        #expect(try await Tool.run("qpdf", ["--encrypt", "", "owner-secret", "256", "--extract=n", "--", Fixtures.path("images.pdf"), locked]).status == 0)
        try await harness.run { client in
            let path = documentPath("images.pdf") + "/images"
            let listed = try #require(try await client.get(path + "?renderer=\(engine)").json as? [[String: Any]])
            let roles = listed.compactMap { $0["role"] as? String }
            #expect(listed.count == 15 && roles.filter { ["smask", "mask"].contains($0) }.count == 2, "\(roles)")
            #expect(listed[7].keys.contains("object") == false && listed[7]["inlineIndex"] as? Int == 0, "the inline image")
            let jpeg = try await client.get(path + "/2?renderer=\(engine)")
            #expect(jpeg.status == .ok && jpeg.headers[.contentType] == "image/jpeg")
            #expect(jpeg.data == (try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("image.jpg")))))
            #expect(jpeg.headers[.contentDisposition]?.contains("filename=\"images-2.jpg\"") == true, "\(jpeg.headers)")
            let png = try await client.get(path + "/0")
            #expect(png.status == .ok && png.headers[.contentType] == "image/png" && png.data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            #expect(png.headers[.contentSecurityPolicy] == "sandbox" && png.headers[.init("X-Content-Type-Options")!] == "nosniff")
            for (number, status) in [("15", HTTPResponse.Status.notFound), ("-1", .badRequest), ("x", .badRequest), ("99999999999999999999", .badRequest), ("1e3", .badRequest)] {
                let answer = try await client.get(path + "/" + number)
                #expect(answer.status == status && answer.errorCode != nil, "\(number): \(answer.status)")
            }
            let forbidden = try await client.get(documentPath("locked.pdf") + "/images/2")
            #expect(forbidden.status == .forbidden && forbidden.errorCode == "not-permitted", "\(forbidden.status)")
            #expect((try await client.get(documentPath("locked.pdf") + "/images").json as? [Any])?.count == 15)
        }
        var settings = DocumentSettings()
        settings[.saveTo] = FeatureSetting(available: false, enabled: false)
        try await harness.run(configure: { $0.settings = settings }) { client in
            let refused = try await client.get(documentPath("images.pdf") + "/images/0")
            #expect(refused.status == .forbidden && refused.errorCode == "not-permitted")
            #expect(try await client.get(documentPath("images.pdf") + "/images").status == .ok)
        }
    }

    /// layers.pdf's optional-content groups, listed (and under `/layers`, the former path, the
    /// same); page images with groups shown and hidden by index, each its own cached image;
    /// what a stranger might send instead of indices is 400, a group the document lacks too; a
    /// document without optional content lists none. The same, isolated (`--isolate`).
    @Test(arguments: [false, true])
    func optionalContentIsListedAndDrawnAsAsked(isolated: Bool) async throws {
        let harness = try ServerHarness(extra: ["layers.pdf"])
        try await harness.run(registry: isolated ? IsolatedServerTests.registry() : Fixtures.registry) { client in
            let path = documentPath("layers.pdf")
            for engine in ["mupdf", "poppler"] {
                let answer = try await client.get(path + "/optional-content?renderer=\(engine)")
                let listed = try #require(answer.json as? [String: Any])
                let groups = try #require(listed["groups"] as? [[String: Any]])
                #expect(groups.map { $0["name"] as? String } == ["Red", "Blue", "L\u{e9}gende", "Orange (not in Order)"], "\(engine)")
                #expect(groups.map { $0["isVisibleByDefault"] as? Bool } == [true, false, true, true], "\(engine)")
                #expect((listed["configurations"] as? [[String: Any]])?.first?["name"] as? String == "Default view")
                #expect((listed["layers"] as? [[String: Any]])?.count == 4, "the former key, beside")
                #expect(try await client.get(path + "/layers?renderer=\(engine)").data == answer.data, "the former path answers the same")

                let plain = try await client.get(path + "/pages/0/image?dpi=36&renderer=\(engine)")
                let swapped = try await client.get(path + "/pages/0/image?dpi=36&renderer=\(engine)&hide=0&show=1")
                #expect(plain.status == .ok && swapped.status == .ok, "\(engine): \(swapped.errorMessage ?? "")")
                #expect(plain.headers[.eTag] != swapped.headers[.eTag])
                let (before, after) = await (try pngPixels(plain.data), try pngPixels(swapped.data))
                #expect(before.color(x: 86, y: 71) == [255, 0, 0] && before.color(x: 86, y: 171) == [255, 255, 255], "\(engine): Red shown, Blue hidden")
                #expect(after.color(x: 86, y: 71) == [255, 255, 255] && after.color(x: 86, y: 171) == [0, 0, 255], "\(engine): Red hidden, Blue shown")
                let again = try await client.get(path + "/pages/0/image?dpi=36&renderer=\(engine)")
                #expect(again.data == plain.data, "\(engine): the default again")
            }
            let many = (0..<1001).map(String.init).joined(separator: ",")
            // Indices that are not a list of numbers are a bad request; a group the document
            // does not have, or one both shown and hidden, values it refuses.
            for query in ["show=-1", "hide=a", "hide=1,,2", "show=99999999999999999999", "hide=" + many, "hide=0x1"] {
                let refused = try await client.get(path + "/pages/0/image?dpi=36&" + query)
                #expect(refused.status == .badRequest && refused.errorCode != nil, "\(query)")
            }
            for query in ["hide=9", "hide=0&show=0"] {
                let refused = try await client.get(path + "/pages/0/image?dpi=36&" + query)
                #expect(refused.status == .unprocessableContent && refused.errorCode == "invalid-argument", "\(query)")
            }
            let plain = try #require(try await client.get(documentPath("text.pdf") + "/optional-content").json as? [String: Any])
            #expect((plain["groups"] as? [Any])?.isEmpty == true && (plain["configurations"] as? [Any])?.isEmpty == true)
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/image?dpi=36&hide=0").status == .unprocessableContent)
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    /// `clip=` draws a part of a page alone (reading mode's figures): its pixels are the
    /// whole page's at that place, at the resolution or width asked, each clip its own cached
    /// image; what a stranger might send instead of four numbers is 400, numbers that make no
    /// clip and a clip off the page 422.
    @Test func aClipOfAPageIsDrawnAlone() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let path = documentPath("text.pdf") + "/pages/0/image"
            let page = try await client.get(path + "?dpi=72")
            let clipped = try await client.get(path + "?dpi=72&clip=10,20,100,50")
            #expect(page.status == .ok && clipped.status == .ok, "\(clipped.errorMessage ?? "")")
            #expect(page.headers[.eTag] != clipped.headers[.eTag])
            let (whole, part) = await (try pngPixels(page.data), try pngPixels(clipped.data))
            #expect((part.width, part.height) == (100, 50))
            var differing = 0
            for y in 0..<50 {
                for x in 0..<100 where whole.color(x: x + 10, y: y + 20) != part.color(x: x, y: y) { differing += 1 }
            }
            #expect(differing <= 50, "\(differing) of 5,000 pixels differ from the page's own")
            #expect(Set((0..<50).flatMap { y in (0..<100).map { part.color(x: $0, y: y) } }).count > 1, "the clip holds some of the page's text")
            let wide = try await pngPixels(try await client.get(path + "?width=200&clip=10,20,100,50").data)
            #expect((wide.width, wide.height) == (200, 100))
            for clip in ["1,2,3", "a,b,c,d", "1e9,0,10,10", "nan,0,1,1", "inf,0,1,1", "0,0,10,10,10", ",,,", "1.,2,3,4", "+1,2,3,4"] {
                let refused = try await client.get(path + "?clip=" + clip)
                #expect(refused.status == .badRequest && refused.errorCode != nil, "\(clip)")
            }
            // Numbers as the document's pattern allows them, whose values cannot be a clip.
            for clip in ["0,0,0,10", "0,0,10,-1", "0,0,20000,10", "0,0,1" + String(repeating: "0", count: 400) + ",10"] {
                let refused = try await client.get(path + "?clip=" + clip)
                #expect(refused.status == .unprocessableContent && refused.errorCode == "invalid-argument", "\(clip.prefix(40))")
            }
            let off = try await client.get(path + "?clip=5000,5000,10,10")
            #expect(off.status == .unprocessableContent, "\(off.status)")
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    @Test func everyRouteWantsTheToken() async throws {
        try await ServerHarness().run { client in
            for uri in ["/", "/viewer/viewer.js", "/service-worker.js", "/viewer/manifest.webmanifest", "/api/health", "/api/documents", documentPath("text.pdf") + "/pages/0/image"] {
                for headers: HTTPFields in [[:], [.authorization: "Bearer wrong-token-0123456789xx"], [.cookie: "renderer_token=nope"]] {
                    let response = try await client.execute(uri: uri, method: .get, headers: headers)
                    #expect(response.status == .unauthorized, "\(uri)")
                    #expect(response.errorCode == "unauthorized", "\(uri)")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer", "\(uri)")
                }
            }
            // The viewer's entry takes the token once and hands it back as an HttpOnly cookie.
            let entry = try await client.execute(uri: "/?token=\(ServerHarness.token)", method: .get)
            #expect(entry.status == .ok)
            let cookie = try #require(entry.headers[.setCookie])
            // The cookie's name is the server's own (renderer_token_ and a digest of its token).
            let pair = try #require(cookie.firstMatch(of: /^(renderer_token_[0-9a-f]{12})=([^;]*)/))
            #expect(pair.2 == ServerHarness.token && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let withCookie = try await client.execute(uri: "/api/documents", method: .get, headers: [.cookie: "\(pair.1)=\(ServerHarness.token)"])
            #expect(withCookie.status == .ok)
            // The token in a query opens the viewer's page only, not the API.
            let apiByQuery = try await client.execute(uri: "/api/documents?token=\(ServerHarness.token)", method: .get)
            #expect(apiByQuery.status == .unauthorized)
        }
    }

    @Test func servesOnlyThePDFsItWasGiven() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let list = try #require(try await client.get("/api/documents").json as? [[String: Any]])
            let ids = Set(list.compactMap { $0["id"] as? String })
            #expect(ids == ["docs/text.pdf", "docs/search.pdf", "docs/long.pdf", "docs/labels.pdf", "docs/truncated.pdf"])
            let refusals: [(String, HTTPResponse.Status)] = [
                ("/api/documents/docs%2F..%2F..%2F..%2Fetc%2Fpasswd", .notFound),
                ("/api/documents/docs%2F.%2Ftext.pdf", .notFound),
                ("/api/documents/docs%2F%2Ftext.pdf", .notFound),
                ("/api/documents/docs", .notFound),
                ("/api/documents/elsewhere%2Ftext.pdf", .notFound),
                ("/api/documents/docs%2Fmissing.pdf", .notFound),
                (documentPath("escape.pdf"), .forbidden),
                (documentPath("not-a-pdf.pdf"), .forbidden),
            ]
            for (uri, status) in refusals {
                let response = try await client.get(uri)
                #expect(response.status == status, "\(uri): \(response.status)")
                #expect(response.errorCode != nil, "\(uri)")
            }
        }
    }

    @Test func documentInfoAgreesWithPdfinfo() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            for engine in ["mupdf", "poppler"] {
                let details = try #require(try await client.get(documentPath("long.pdf") + "?renderer=\(engine)").json as? [String: Any])
                let info = try #require(details["info"] as? [String: Any])
                let pdfinfo = try await Tool.run("pdfinfo", ["\(harness.docs)/long.pdf"]).text
                #expect(pdfinfo.contains("Pages:           \(info["pageCount"] as? Int ?? -1)\n"))
                #expect(details["renderer"] as? String == engine)
            }
            let pages = try #require(try await client.get(documentPath("labels.pdf") + "/pages").json as? [[String: Any]])
            let document = try Fixtures.open("labels.pdf", backend: "poppler")
            #expect(pages.map { $0["label"] as? String } == (try document.pageInfos()).map(\.label))
        }
    }

    @Test func pageImagesAreCachedPNGsWithStrongETags() async throws {
        try await ServerHarness().run { client in
            let uri = documentPath("text.pdf") + "/pages/1/image?dpi=72"
            let first = try await client.get(uri)
            #expect(first.status == .ok)
            #expect(first.headers[.contentType] == "image/png")
            #expect(first.headers[.cacheControl] == "private, no-cache")
            #expect(first.headers[.init("X-Renderer")!] == "mupdf")
            let size = try await pngSize(first.data)
            #expect(size.width == 612 && size.height == 792)
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"))
            let again = try await client.get(uri)
            #expect(again.data == first.data && again.headers[.eTag] == tag)
            let notModified = try await client.get(uri, headers: [.ifNoneMatch: tag])
            #expect(notModified.status == .notModified && notModified.data.isEmpty)

            let poppler = try await client.get(uri + "&renderer=poppler")
            #expect(poppler.headers[.init("X-Renderer")!] == "poppler")
            #expect(poppler.headers[.eTag] != tag)
            let byWidth = try await pngSize(try await client.get(documentPath("text.pdf") + "/pages/0/image?width=306").data)
            #expect(byWidth.width == 306 && byWidth.height == 396)

            // `dark` as the document declares it (true, false) and as the routes took it before
            // (1, yes, 0, no, nothing, in any case): the same image, the same tag.
            #expect(notModified.headers[.eTag] == tag)
            let darkTag = try #require(try await client.get(uri + "&dark=true").headers[.eTag])
            #expect(darkTag != tag)
            for (spelling, expected) in [("1", darkTag), ("YES", darkTag), ("True", darkTag), ("0", tag), ("no", tag), ("", tag), ("false", tag)] {
                let answer = try await client.get(uri + "&dark=" + spelling)
                #expect(answer.status == .ok && answer.headers[.eTag] == expected, "dark=\(spelling): \(answer.status)")
            }
            let unreadable = try await client.get(uri + "&dark=maybe")
            #expect(unreadable.status == .badRequest && unreadable.errorMessage == #"dark must be true or false, not "maybe""#, "\(unreadable.errorMessage ?? "")")
        }
    }

    /// A connection stays open across drawn pages and comparisons: each answer is whole
    /// (its length said), none says `Connection: close`, and the next request on the same
    /// connection is answered. Before, every page not in the cache closed its connection.
    @Test func drawnPagesKeepTheirConnection() async throws {
        try await ServerHarness().run { client in
            let connection = try RawHTTPConnection(port: client.port)
            let paths = (0..<3).map { documentPath("text.pdf") + "/pages/\($0)/image?dpi=30" }
                + [documentPath("text.pdf") + "/pages/0/compare?dpi=20", documentPath("text.pdf") + "/pages/1/image?dpi=31"]
            for path in paths {
                try connection.get(path, headers: ["Authorization": "Bearer \(ServerHarness.token)"])
                let answer = await connection.read { data in
                    guard let end = data.range(of: Data("\r\n\r\n".utf8)),
                        let length = String(decoding: data[..<end.lowerBound], as: UTF8.self).firstMatch(of: /(?i)content-length: (\d+)/)
                    else { return false }
                    return data.count - end.upperBound >= Int(length.1)!
                }
                let end = answer.range(of: Data("\r\n\r\n".utf8))?.lowerBound ?? answer.endIndex
                let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
                #expect(head.hasPrefix("http/1.1 200"), "\(path): \(head)")
                #expect(!head.contains("connection: close"), "\(path): \(head)")
                #expect(!connection.closedByServer, "\(path)")
            }
        }
    }

    @Test func badPageRequestsGetJSONErrors() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("text.pdf/pages/-1/image", .badRequest, "bad-request"),
                ("text.pdf/pages/x/image", .badRequest, "bad-request"),
                ("text.pdf/pages/3/image", .notFound, "page-out-of-range"),
                ("text.pdf/pages/0/image?dpi=0", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?dpi=-5", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?dpi=5000", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?dpi=abc", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?width=0", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?width=40000", .badRequest, "bad-request"),
                ("text.pdf/pages/0/image?renderer=pdfium", .badRequest, "bad-request"),
                ("text.pdf/pages/0/text?renderer=", .badRequest, "bad-request"),
                ("text.pdf/search", .badRequest, "bad-request"),
                ("truncated.pdf/pages/0/image", .unprocessableContent, "damaged"),
                ("truncated.pdf", .unprocessableContent, "damaged"),
            ]
            for (path, status, code) in cases {
                let response = try await client.get(documentPath("") + path)
                #expect(response.status == status, "\(path): \(response.status)")
                #expect(response.errorCode == code, "\(path)")
                #expect(response.headers[.contentType] == "application/problem+json", "\(path)")
                #expect(response.problemStatus == Int(status.code), "\(path)")
                // Clients see document ids, never where the server keeps its files.
                #expect(response.errorMessage?.contains(harness.folder) == false, "\(path): \(response.errorMessage ?? "")")
            }
            #expect(try await client.get("/api/health").status == .ok)
        }
    }

    @Test func textLayerWordsMatchPdftotext() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            for engine in ["mupdf", "poppler"] {
                let layer = try #require(try await client.get(documentPath("text.pdf") + "/pages/1/text?renderer=\(engine)").json as? [String: Any])
                let words = (layer["lines"] as? [[String: Any]] ?? []).flatMap { $0["words"] as? [[String: Any]] ?? [] }
                let witness = try await Self.pdftotextWords("\(harness.docs)/text.pdf", page: 2)
                #expect(words.map { $0["text"] as? String } == witness.map(\.text), "\(engine)")
                for (word, expected) in zip(words, witness) {
                    let bounds = try #require(word["bounds"] as? [String: [String: Double]])
                    #expect(abs(bounds["origin"]!["x"]! - expected.box.minX) < 1.5, "\(engine) \(expected.text)")
                    #expect(abs(bounds["origin"]!["x"]! + bounds["size"]!["width"]! - expected.box.maxX) < 1.5, "\(engine) \(expected.text)")
                    #expect(abs(bounds["origin"]!["y"]! - expected.box.minY) < 3, "\(engine) \(expected.text)")
                }
            }
        }
    }

    @Test func searchStreamsHitsInPageOrder() async throws {
        let harness = try ServerHarness()
        try await harness.run { client in
            let response = try await client.get(documentPath("long.pdf") + "/search?q=Page%201&renderer=poppler")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/x-ndjson") == true)
            #expect(response.headers[.contentLength] == nil)  // streamed, not collected first
            let lines = String(decoding: response.data, as: UTF8.self).split(separator: "\n").map {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let hits = lines.dropLast().compactMap { $0?["pageIndex"] as? Int }
            let last = try #require(lines.last ?? nil)
            #expect(last["done"] as? Bool == true && last["pagesSearched"] as? Int == 100 && last["hits"] as? Int == hits.count)
            // pdftotext's pages (separated by form feeds) that hold "Page 1" as a word prefix.
            let pages = try await Tool.run("pdftotext", ["\(harness.docs)/long.pdf", "-"]).text.components(separatedBy: "\u{0C}")
            let expected = pages.enumerated().filter { $0.element.contains("Page 1") }.map(\.offset)
            #expect(hits == expected)
        }
    }

    /// The search route folds ligatures on both engines and ignores accents when asked.
    @Test func searchFoldsLigaturesAndAccentsOnEveryEngine() async throws {
        let harness = try ServerHarness(extra: ["ligatures.pdf"])
        try await harness.run { client in
            func hits(_ query: String) async throws -> [Int] {
                let response = try await client.get(documentPath("ligatures.pdf") + "/search?" + query)
                #expect(response.status == .ok, "\(query)")
                let lines = String(decoding: response.data, as: UTF8.self).split(separator: "\n").compactMap {
                    try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
                }
                return lines.compactMap { $0["pageIndex"] as? Int }
            }
            for engine in ["mupdf", "poppler"] {
                #expect(try await hits("q=office&renderer=\(engine)") == [0])
                #expect(try await hits("q=of%EF%AC%81ce&renderer=\(engine)") == [0], "the term with U+FB01")
                #expect(try await hits("q=resume&renderer=\(engine)") == [0])
                #expect(try await hits("q=resume&ignoreAccents=true&renderer=\(engine)") == [0, 0])
            }
            let refused = try await client.get(documentPath("ligatures.pdf") + "/search?q=resume&ignoreAccents=maybe")
            #expect(refused.status == .badRequest)
        }
    }

    /// Query parameters are read as browsers write them: `+` is a space and `%2B` a plus
    /// sign, so a phrase from the viewer's address finds the phrase.
    @Test func aPhraseInTheAddressIsFound() async throws {
        try await ServerHarness().run { client in
            for (query, expected) in [
                ("q=provider+fixture", 1), ("q=provider%20fixture", 1), ("q=Provider+FIXTURE&renderer=poppler", 1), ("q=provider%2Bfixture", 0),
            ] {
                let body = String(decoding: try await client.get(documentPath("text.pdf") + "/search?" + query).data, as: UTF8.self)
                let done = body.split(separator: "\n").last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                #expect(done?["hits"] as? Int == expected, "\(query): \(body)")
            }
            let undecodable = try await client.get(documentPath("text.pdf") + "/search?q=%FF%FE")
            #expect(undecodable.status == .badRequest)
        }
    }

    @Test func outlineLinksAndComparison() async throws {
        try await ServerHarness(extra: ["destinations.pdf"]).run { client in
            let outline = try await client.get(documentPath("text.pdf") + "/outline")
            #expect(outline.status == .ok && outline.json is [Any])
            let links = try await client.get(documentPath("text.pdf") + "/pages/0/links?renderer=poppler")
            #expect(links.status == .ok && links.json is [Any])
            // A destination is written as a person would write it: a kind, and its fields.
            for engine in ["mupdf", "poppler"] {
                let targets = try #require(try await client.get(documentPath("destinations.pdf") + "/pages/0/links?renderer=\(engine)").json as? [[String: Any]])
                    .compactMap { $0["destination"] as? [String: Any] }
                #expect(!targets.isEmpty, "\(engine)")
                for target in targets {
                    switch target["kind"] as? String {
                    case "page": #expect(target["index"] is Int && target["_0"] == nil, "\(engine): \(target)")
                    case "uri": #expect(target["uri"] is String, "\(engine): \(target)")
                    default: Issue.record("\(engine): a destination without a known kind: \(target)")
                    }
                }
            }
            let comparison = try #require(try await client.get(documentPath("text.pdf") + "/pages/0/compare?dpi=50").json as? [String: Any])
            #expect(comparison["reference"] as? String == "mupdf" && comparison["candidate"] as? String == "poppler")
            let figures = try #require(comparison["page"] as? [String: Any])
            #expect(figures["passed"] as? Bool == true)
            #expect((figures["differingShare"] as? Double ?? 1) < 0.05)
            let heatMapURI = try #require(comparison["heatMap"] as? String)
            let heatMap = try await client.get(heatMapURI)
            #expect(heatMap.headers[.contentType] == "image/png")
            let size = try await pngSize(heatMap.data)
            #expect(size.width == Int((612.0 * 50 / 72).rounded()) && size.height == Int((792.0 * 50 / 72).rounded()))
            #expect(try await client.get(documentPath("text.pdf") + "/pages/0/compare?dpi=0").status == .badRequest)
        }
    }

    private static func pdftotextWords(_ path: String, page: Int) async throws -> [(text: String, box: PageRect)] {
        let xhtml = try await Tool.run("pdftotext", ["-bbox", "-f", "\(page)", "-l", "\(page)", path, "-"]).text
        let pattern = try NSRegularExpression(pattern: #"<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>"#)
        return pattern.matches(in: xhtml, range: NSRange(xhtml.startIndex..., in: xhtml)).map { match in
            let field = { (i: Int) in String(xhtml[Range(match.range(at: i), in: xhtml)!]) }
            let (x0, y0, x1, y1) = (Double(field(1))!, Double(field(2))!, Double(field(3))!, Double(field(4))!)
            return (field(5), PageRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
        }
    }
}
