import ArgumentParser
import Dispatch
import HostCommands
import RendererProvider

/// `hostapp ocr`: scanned pages made searchable.
struct OCRCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr", abstract: "Make scanned pages searchable: their text, read by Tesseract, written over them as invisible text.",
        discussion: """
            Each selected page without text (every selected page with --force-ocr) is drawn by the renderer at \
            --ocr-dpi, read by Tesseract in the languages of --ocr-languages, and its words are written over it as \
            invisible text, each on its box, so that text tools, search and selection find them where the image \
            shows them. The page images and the rest of each page stay as they were. Pages are read on --jobs \
            threads; nothing is written unless every page is read.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(help: "Pages, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).")
    var pages: String?
    @OptionGroup var saving: SaveOptions
    @OptionGroup var jobOptions: JobOptions
    @OptionGroup var documentArguments: DocumentArguments

    func execute() throws {
        var global = self.global
        let recognition = try global.textRecognition(of: global.ocrPages ?? .withoutText)!
        // The session reads the pages' own text, to tell the scans.
        global.ocrPages = nil
        let interrupt = InterruptWatch()
        let (read, kept, words) = try saving.edit(file, with: global) { session in
            // Refused before any page is read, when the settings or the PDF forbid the edit.
            try session.check(.editing)
            let selected = try PageSelection(text: pages ?? "1-").indices(pageCount: session.pageCount)
            let chosen = try selected.filter { try recognition.pages == .all || session.textPage(pageAt: $0).isBlank }
            let layers = try Self.recognize(chosen, in: session, with: recognition, jobs: jobOptions.jobs, cancellation: interrupt.cancellation)
            // Ctrl-C after the last page is read still stops the run before anything is written.
            try interrupt.cancellation.check()
            try session.addTextLayers(layers)
            return (chosen.count, selected.count - chosen.count, layers.values.map(\.words.count).reduce(0, +))
        }
        withExtendedLifetime(interrupt) {}
        let keptNote = kept == 0 ? "" : "; \(kept) page\(kept == 1 ? "" : "s") kept \(kept == 1 ? "its" : "their") own text"
        Failure.printNote("read \(read) page\(read == 1 ? "" : "s"), \(words) word\(words == 1 ? "" : "s")\(keptNote)")
    }

    /// The text of `pages`, read on `jobs` threads; the first failure stops the others and is thrown.
    static func recognize(
        _ pages: [Int], in session: ReadingSession, with recognition: TextRecognition, jobs: Int, cancellation: Cancellation
    ) throws -> [Int: TextPage] {
        let work = Locked((next: 0, read: [Int: TextPage](), failure: Error?.none))
        let stop = Cancellation(within: cancellation)
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, pages.count))) { _ in
            while let index = work.withLock({ state -> Int? in
                guard state.failure == nil, state.next < pages.count else { return nil }
                state.next += 1
                return pages[state.next - 1]
            }) {
                do {
                    let page = try session.recognizeText(pageAt: index, with: recognition, cancellation: stop)
                    work.withLock { $0.read[index] = page }
                    Failure.printProgress("page \(index + 1): \(page.words.count) words")
                } catch {
                    work.withLock { if $0.failure == nil { $0.failure = error } }
                    stop.cancel()
                }
            }
        }
        let (read, failure) = work.withLock { ($0.read, $0.failure) }
        if let failure { throw failure }
        return read
    }
}
