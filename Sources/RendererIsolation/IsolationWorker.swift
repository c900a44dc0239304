import Foundation
import RendererProvider

#if canImport(Glibc)
    import Glibc
#endif

/// The engine process's side of isolation: a program started by ``IsolatedDocument`` calls
/// `serve(registry:beforePage:)` and does nothing else.
public enum IsolationWorker {
    /// Answers the requests that arrive on standard input, on standard output, with the
    /// renderers of `registry`, until the calling process closes the socket; then returns.
    /// Anything else written to standard output while serving goes to standard error.
    /// `beforePage`, if given, is called with a page's index before each request about a
    /// page (a test uses it to make the engine process crash on a chosen page).
    public static func serve(registry: RendererRegistry, beforePage: ((Int) -> Void)? = nil) {
        let replies = dup(1)
        dup2(2, 1)
        let input = MessageChannel(descriptor: 0), output = MessageChannel(descriptor: replies)
        var document: Document?
        while let request = try? input.receive(IsolationRequest.self, before: nil) {
            if let page = request.page { beforePage?(page) }
            do {
                try answer(request, document: &document, registry: registry, output: output)
            } catch let error as RendererError {
                guard (try? output.send(IsolationReply.failed(WireError(error)))) != nil else { return }
            } catch {
                return
            }
        }
    }

    private static func answer(_ request: IsolationRequest, document: inout Document?, registry: RendererRegistry, output: MessageChannel) throws {
        if case .open(let path, let password, let backend, let capabilities, let cacheBytes, let memoryBytes) = request {
            if let memoryBytes { limitAddressSpace(to: memoryBytes) }
            let opened = try registry.open(
                .file(path), password: password, backend: BackendSelection(backend), needing: capabilities,
                limits: DocumentLimits(cacheBytes: cacheBytes))
            document = opened
            let renderer = opened.renderer
            return try output.send(IsolationReply.opened(.init(
                pageCount: opened.pageCount, backend: renderer.id, engineName: renderer.engineName, engineVersion: renderer.engineVersion)))
        }
        guard let document else { throw RendererError(.invalidArgument, "no document is open in the engine process") }
        switch request {
        case .open: break
        case .info: try output.send(IsolationReply.info(try document.info()))
        case .pageInfos: try output.send(IsolationReply.pageInfos(try document.pageInfos()))
        case .render(let page, let options, let file?):
            let size = try document.render(pageAt: page, options: options, as: file.format, to: file.path)
            try output.send(IsolationReply.rendered(width: size.width, height: size.height, stride: 0, format: options.pixelFormat))
        case .render(let page, let options, nil):
            let bitmap = try document.render(pageAt: page, options: options)
            let reply = IsolationReply.rendered(width: bitmap.width, height: bitmap.height, stride: bitmap.stride, format: bitmap.format)
            try bitmap.bytes.withUnsafeBytes { try output.send(reply, then: UnsafeRawBufferPointer(rebasing: $0[..<(bitmap.stride * bitmap.height)])) }
        case .text(let page): try output.send(IsolationReply.text(try document.text(pageAt: page)))
        case .textPage(let page): try output.send(IsolationReply.textPage(try document.textPage(pageAt: page)))
        case .pageInfo(let page): try output.send(IsolationReply.pageInfo(try document.pageInfo(at: page)))
        case .links(let page): try output.send(IsolationReply.links(try document.links(pageAt: page)))
        case .outline: try output.send(IsolationReply.outline(try document.outline()))
        case .annotations(let page): try output.send(IsolationReply.annotations(try document.annotations(onPageAt: page)))
        }
    }

    /// Caps this process's address space, so that an engine that would exhaust the
    /// machine's memory sees its allocations fail instead. Not under AddressSanitizer or
    /// ThreadSanitizer, whose shadow memory alone takes terabytes of address space.
    private static func limitAddressSpace(to bytes: Int) {
        guard !runsUnderSanitizer else { return }
        var limit = rlimit(rlim_cur: rlim_t(bytes), rlim_max: rlim_t(bytes))
        var current = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &current) == 0, current.rlim_max < limit.rlim_max {
            limit = rlimit(rlim_cur: current.rlim_max, rlim_max: current.rlim_max)
        }
        _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limit)
    }

    /// Whether this program was built with AddressSanitizer or ThreadSanitizer, under which
    /// the engine process's address space is not capped.
    public static let runsUnderSanitizer = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil
}
