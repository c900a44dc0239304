import Foundation
import RendererIsolation
import RendererProvider
import RendererSignatures
import Testing
import TestSupport

/// Documents whose engine runs in a child process (`IsolatedRenderer`): ordinary
/// `Document`s with the same answers as in the calling process, edits and saves included,
/// and an engine crash, hang or memory exhaustion costs one call, not the caller.
@Suite("Isolation in an engine process")
struct IsolationTests {
    /// hostapp's worker command as the engine process.
    static func isolation(_ extra: [String] = [], timeLimit: Duration? = .seconds(60), memoryBytes: Int? = nil) -> IsolationOptions {
        IsolationOptions(executable: HostAppTests.executable, arguments: ["worker"] + extra, timeLimit: timeLimit, memoryBytes: memoryBytes)
    }

    /// `path` opened by `backend` in an engine process started as `isolation` says.
    static func open(
        _ path: String, password: String? = nil, backend: RendererSelection = .auto, isolation: IsolationOptions = isolation()
    ) throws -> Document {
        try RendererRegistry(IsolatedRenderer.isolating(Fixtures.registry.renderers, with: isolation)).open(.file(path), password: password, renderer: backend)
    }

    func hostapp(_ arguments: String..., environment: [String: String] = [:]) async throws -> Tool.Result {
        try await Tool.run(HostAppTests.executable, arguments, environment: environment)
    }

    /// Pixels, text and page facts equal those of the same engine in this process.
    @Test(arguments: Fixtures.backendIDs)
    func answersEqualThoseOfTheCallingProcess(backend: String) throws {
        let path = Fixtures.path("rotated.pdf")
        let local = try Fixtures.open("rotated.pdf", backend: backend)
        let isolated = try Self.open(path, backend: .id(backend))
        #expect(isolated.rendererID == backend)
        #expect(isolated.engineName == local.renderer.engineName)
        #expect(isolated.pageCount == 4)
        #expect(try isolated.pageInfos() == local.pageInfos())
        #expect(try isolated.info() == local.info())
        for index in 0..<4 {
            let options = RenderOptions(dpi: 50, pixelFormat: index % 2 == 0 ? .rgb : .rgba)
            #expect(try isolated.render(pageAt: index, options: options) == local.render(pageAt: index, options: options))
            #expect(try isolated.text(pageAt: index) == local.text(pageAt: index))
            #expect(try isolated.textPage(pageAt: index) == local.textPage(pageAt: index))
        }
        let outline = try Self.open(Fixtures.path("outline.pdf"), backend: .id(backend))
        let localOutline = try Fixtures.open("outline.pdf", backend: backend)
        #expect(try outline.destination(named: "sec12") == localOutline.destination(named: "sec12"))
        #expect(try outline.destination(named: "sec12") != nil && outline.destination(named: "none") == nil)
        let fonts = try Self.open(Fixtures.path("fonts.pdf"), backend: .id(backend)).fonts()
        let localFonts = try Fixtures.open("fonts.pdf", backend: backend).fonts()
        #expect(fonts.count == 6 && fonts == localFonts)
    }

    /// Errors come back with their codes; the password travels over the socket, not the
    /// command line.
    @Test func errorsKeepTheirCodes() throws {
        let locked = #expect(throws: RendererError.self) {
            try Self.open(Fixtures.path("encrypted.pdf"), backend: .id("mupdf"))
        }
        #expect(locked?.code == .passwordRequired)
        let opened = try Self.open(Fixtures.path("encrypted.pdf"), password: "user-secret")
        #expect(opened.pageCount == 3)
        let missing = #expect(throws: RendererError.self) { try Self.open("/nonexistent.pdf") }
        #expect(missing?.code == .fileNotFound)
        let outside = #expect(throws: RendererError.self) { try opened.text(pageAt: 3) }
        #expect(outside?.code == .pageOutOfRange)
        let tooLarge = #expect(throws: RendererError.self) { try opened.render(pageAt: 0, options: RenderOptions(dpi: 9000)) }
        #expect(tooLarge?.code == .limitExceeded)
    }

    /// An engine process that crashes on page 2 costs page 2: the error says how the
    /// process ended, and the next page is served by a new engine process.
    @Test func aCrashCostsOnePage() throws {
        let document = try Self.open(Fixtures.samplePath, isolation: Self.isolation(["--test-crash-on-page", "2"]))
        let first = try document.text(pageAt: 0)
        #expect(first.contains("Renderer Provider Sample"))
        let crash = #expect(throws: RendererError.self) { try document.render(pageAt: 1) }
        #expect(crash?.code == .engineCrashed)
        #expect(crash?.message.contains("signal 11") == true)
        #expect(crash?.message.contains("page 2") == true)
        #expect(try document.text(pageAt: 2).contains("Conclusion"))
        #expect(try document.text(pageAt: 0) == first)
    }

    /// The calling process need not link an engine: the engine process says what it
    /// serves, and documents from a file or from memory open through what it said.
    @Test func theEngineProcessDescribesItsRenderers() throws {
        let described = try IsolatedRenderer.renderers(servedBy: Self.isolation())
        // hostapp-full's engines: the two full ones, then Ghostscript, chosen by name only.
        #expect(described.map(\.id) == Fixtures.readingBackendIDs)
        #expect(described.map(\.isChosenByAuto) == [true, true, false])
        let notHere: Set<Capability> = [.openStream]
        for (isolated, local) in zip(described, Fixtures.registry.renderers) {
            #expect(isolated.engineVersion == local.engineVersion && isolated.annotationSupport == local.annotationSupport)
            #expect(isolated.capabilities == local.capabilities.subtracting(notHere))
            for type in local.contentTypes {
                #expect(isolated.capabilities(for: type) == local.capabilities(for: type).subtracting(notHere), "\(local.id) \(type)")
            }
        }
        let registry = RendererRegistry(described)
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("text.pdf")))
        let fromMemory = try registry.open(.memory(data), renderer: .id("poppler"))
        #expect(try fromMemory.text(pageAt: 1).contains("fixture"))
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appendingPathComponent("page.png").path
        try fromMemory.render(pageAt: 0, options: RenderOptions(dpi: 20), as: .png, to: png)
        #expect(try Data(contentsOf: URL(fileURLWithPath: png)).prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // A program that is no engine process is an error, not a hang.
        let wrong = #expect(throws: RendererError.self) { try IsolatedRenderer.renderers(servedBy: IsolationOptions(executable: "/bin/true")) }
        #expect(wrong?.code == .engineCrashed)
    }

    /// Edits go to the engine process and a save writes them: an isolated document is an
    /// ordinary document, forms and annotations included.
    @Test(arguments: Fixtures.backendIDs)
    func editsAndSavesWorkIsolated(backend: String) throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let document = try Self.open(Fixtures.path("forms.pdf"), backend: .id(backend))
        let added = try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 30, height: 20), contents: "isolated"))
        #expect(try document.annotations(pageAt: 0).contains { $0.id == added.id })
        let field = try #require(try document.formFields().first { $0.kind == .text })
        try document.fillForm([field.name: ["typed isolated"]])
        let output = directory.appendingPathComponent("saved.pdf").path
        try document.save(to: output)
        // This process's engine, not the one that wrote it, reads the file back.
        let reread = try Fixtures.registry.open(.file(output), renderer: .id(backend))
        #expect(try reread.annotations(pageAt: 0).contains { $0.contents == "isolated" })
        #expect(try reread.formFields().first { $0.name == field.name }?.values == ["typed isolated"])
        // The outline and links are written in the engine process too.
        let outline = [OutlineItem(title: "Isolated", destination: .page(index: 0, point: nil, view: DestinationView(fit: .fit)), isBold: true)]
        let link = Link(area: PageRect(x: 20, y: 20, width: 40, height: 10), destination: .uri("https://example.org/isolated"))
        try document.setOutline(outline)
        try document.addLink(link, pageAt: 0)
        #expect(try document.removeLinks(in: link.area, pageAt: 0) == 1)
        try document.addLink(link, pageAt: 0)
        try document.save(to: output)
        let again = try Fixtures.registry.open(.file(output), renderer: .id(backend))
        #expect(try again.outline() == outline)
        #expect(try again.links(pageAt: 0).map(\.destination) == [link.destination])
    }

    /// A signature is laid out in the engine process and signed in this one, where the key is.
    @Test(arguments: Fixtures.backendIDs)
    func signingWorksIsolated(backend: String) async throws {
        let identities = try await SigningIdentities.make()
        defer { identities.remove() }
        let document = try Self.open(Fixtures.path("forms.pdf"), backend: .id(backend))
        let identity = try SigningIdentity(pkcs12File: identities.path("signer.p12"), password: SigningIdentities.password)
        let output = identities.path("signed.pdf")
        try document.sign(with: identity).write(to: URL(fileURLWithPath: output))
        let verdicts = try await Fixtures.registry.open(.file(output), renderer: .id(backend)).verifySignatures(trust: TrustAnchors(pem: try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.pem")))))
        #expect(verdicts.map(\.verdict) == [.valid])
        #expect(try await Tool.run("pdfsig", [output]).text.contains("Signature is Valid"))
        // The document security store, written and read through the engine process.
        let crl = try Data(contentsOf: URL(fileURLWithPath: identities.path("ca.crl")))
        let stored = identities.path("stored.pdf")
        try Self.open(output, backend: .id(backend)).addingValidationData(ValidationData(crls: [crl])).write(to: URL(fileURLWithPath: stored))
        #expect(try Self.open(stored, backend: .id(backend)).validationData().crls == [crl])
    }

    /// Changes an engine process held are lost when it crashes: that call and every later one
    /// say so, rather than answer from the file as it was before the changes.
    @Test func aCrashWithUnsavedChangesIsNeverSilent() throws {
        let document = try Self.open(Fixtures.samplePath, backend: .id("mupdf"), isolation: Self.isolation(["--test-crash-on-page", "2"]))
        _ = try document.addAnnotation(Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 30, height: 20)))
        let crash = #expect(throws: RendererError.self) { try document.render(pageAt: 1, options: RenderOptions(dpi: 20)) }
        #expect(crash?.code == .engineCrashed && crash?.message.contains("are lost") == true, "\(String(describing: crash))")
        let later = #expect(throws: RendererError.self) { try document.annotations(pageAt: 0) }
        #expect(later?.code == .engineCrashed)
    }

    /// An engine process holds none of the caller's descriptors: a pipe this process opened
    /// without close-on-exec (as Foundation's `Pipe` does) reaches its end when this process
    /// closes its writing side, though a worker started while it was open still runs. Before,
    /// a worker kept another thread's pipe to a tool open, and the read of that tool's output
    /// waited for the worker to end.
    @Test func anEngineProcessHoldsNoneOfTheCallersDescriptors() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let document = try Self.open(Fixtures.samplePath, backend: .id("mupdf"))
        close(ends[1])
        var reading = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        #expect(poll(&reading, 1, 0) == 1)
        #expect(reading.revents & Int16(POLLHUP) != 0, "an engine process still holds the pipe's writing end")
        #expect(document.pageCount == 3)
    }

    /// A page that would take the engine hours is stopped at the time limit, and the document
    /// stays usable. The 15 s wait for the limit runs on a thread of its own, never on one of
    /// the few threads every other test's tasks share.
    @Test(arguments: Fixtures.backendIDs)
    func aHangPastTheTimeLimitIsStopped(backend: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("slow.pdf").path
        // Hours of drawing on any machine, against a limit that starting the engine process
        // and opening the 60 KB file keep well within even on a loaded one (a 2 s limit
        // did not, once, with 120,000 curves).
        try SlowPage.writeEndless(to: path)
        let document = try Self.open(path, backend: .id(backend), isolation: Self.isolation(timeLimit: .seconds(15)))
        let error = await #expect(throws: RendererError.self) {
            try await onOwnThread { try document.render(pageAt: 0, options: RenderOptions(dpi: 300)) }
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("the engine took longer than the time limit of 15.0 s to draw page 1") == true)
        #expect(try document.pageInfos().first?.size == PageSize(width: 612, height: 792))
    }

    /// An engine process that would need more memory than it may have ends with an error;
    /// this process goes on.
    @Test(.disabled(if: IsolationWorker.runsUnderSanitizer, "AddressSanitizer and ThreadSanitizer need an uncapped address space"))
    func memoryExhaustionIsAnError() throws {
        let path = try #require(Self.hostileFile("hostile-huge-page.pdf"))
        let document = try Self.open(path, backend: .id("mupdf"), isolation: Self.isolation(memoryBytes: 700 << 20))
        // 14,400 pt at 100 dpi: 20,000 x 20,000 RGB pixels, 1.2 GB.
        let options = RenderOptions(dpi: 100, maximumPixelCount: 1 << 30)
        let error = #expect(throws: RendererError.self) { try document.render(pageAt: 0, options: options) }
        #expect(error?.code == .engineCrashed || error?.code == .limitExceeded)
        #expect(try document.render(pageAt: 0, options: RenderOptions(dpi: 1)).width == 200)
    }

    /// hostapp --isolate: a crash on one page fails that page only, with exit code 70;
    /// the other pages are written whole and no temporary file is left.
    @Test(arguments: ["render", "text"])
    func hostappGoesOnAfterACrash(command: String) async throws {
        let directory = try Tool.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = command == "render" ? ["-o", directory.path, "--dpi", "36"] : []
        let result = try await Tool.run(
            HostAppTests.executable, ["--isolate", command, Fixtures.samplePath] + arguments,
            environment: ["HOSTAPP_TEST_CRASH_ON_PAGE": "2"])
        #expect(result.status == 70)
        #expect(result.stderr.contains("hostapp: error: page 2: "))
        #expect(result.stderr.contains("signal 11"))
        if command == "render" {
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
            #expect(files == ["sample-1.png", "sample-3.png"])
        } else {
            #expect(result.text.contains("Renderer Provider Sample") && result.text.contains("Conclusion"))
        }
    }

    /// hostapp's isolated info prints what the in-process one prints.
    @Test(arguments: Fixtures.backendIDs)
    func hostappIsolatedInfoEqualsInProcessInfo(backend: String) async throws {
        let isolated = try await hostapp("--isolate", "--renderer", backend, "info", Fixtures.path("labels.pdf"))
        let local = try await hostapp("--renderer", backend, "info", Fixtures.path("labels.pdf"))
        #expect(isolated.status == 0 && local.status == 0)
        #expect(isolated.text == local.text)
        // Every command runs isolated, and says what it says in process.
        let commands = [
            ["outline", Fixtures.path("outline.pdf")], ["links", Fixtures.path("destinations.pdf")],
            ["annotations", "list", Fixtures.path("annotations.pdf")], ["forms", "list", Fixtures.path("forms.pdf")],
            ["signatures", Fixtures.path("signed.pdf")],
        ]
        for command in commands {
            let isolated = try await Tool.run(HostAppTests.executable, ["--isolate", "--renderer", backend] + command)
            let local = try await Tool.run(HostAppTests.executable, ["--renderer", backend] + command)
            #expect(isolated.status == 0 && isolated.status == local.status && isolated.text == local.text, "\(command): \(isolated.stderr)")
        }
    }

    /// A file of the damaged set (Tests/Damaged/make-damaged.py), written on first use.
    static func hostileFile(_ name: String) -> String? {
        DamagedSet.hostile.map { $0.appendingPathComponent(name).path }
    }
}
