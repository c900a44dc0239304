import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct TextCommand: DocumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Print the text of pages in reading order (a form feed between pages), words with boxes as JSON, or the text with its structure as Markdown or HTML.")

    /// What the text is written as.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case plain, json, markdown, html
    }

    @ParentCommand var hostApp: HostApp
    @OptionGroup var options: PageOptions
    @OptionGroup var jobOptions: JobOptions

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Write the text to a file instead of stdout: all pages to one .txt file (a form feed between pages), or each page to its own, in a directory (files named NAME-PAGE.txt) or by a pattern with %d or %0Nd for the page number; - is stdout.",
        valueName: "file-dir-or-pattern"))
    var output: String?

    @Option(help: ArgumentHelp(
        "plain (the default), json (as --json), markdown or html: the text with headings, paragraphs, lists, tables, links and figures, in reading order: from a tagged PDF's structure tree (Poppler), else found from the layout.",
        valueName: "format"))
    var format: Format?

    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var documentArguments: DocumentArguments

    /// The format asked for, by --format or --json.
    private var chosenFormat: Format { format ?? (options.json ? .json : .plain) }

    func validate() throws {
        if options.json, let format, format != .json { throw ValidationError("--json is --format json: it excludes --format \(format.rawValue)") }
        if pageFiles != nil && chosenFormat == .json { throw ValidationError("--json prints to stdout: it excludes --output") }
        if pageFiles != nil && [.markdown, .html].contains(chosenFormat) {
            throw ValidationError("--format \(chosenFormat.rawValue) writes one document: --output names one file (.md or .html) or - for stdout")
        }
        if shardOptions.keepsManifest && pageFiles == nil { throw ValidationError("--shard and --resume need --output: the manifest records page files") }
    }

    /// The one file -o names for all the text (a .txt name that is no directory, or .md or
    /// .html with those formats), or nil.
    private var oneFile: String? {
        guard let output, OutputNaming.namesFile(output, extensions: ["txt", "md", "markdown", "html", "htm"]) else { return nil }
        return output
    }

    /// The directory or pattern -o names for a file per page, or nil.
    private var pageFiles: String? {
        guard let output, output != "-", oneFile == nil else { return nil }
        return output
    }

    struct PageReport: Encodable {
        struct Word: Encodable {
            var text: String
            var x, y, width, height: Double
            /// Text recognition's, from 0 to 100; none for the document's own text.
            var confidence: Double?
        }
        var page: String
        var text: String
        var words: [Word]
    }

    func run() throws {
        var failures = PageFailures()
        try Failure.reporting {
            let document = try global.open(file, needing: [.text])
            // Writing the text out is copying it.
            try global.checkSettings(permit: [.copying], on: file, opened: document)
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            let indices = try PageSelection(text: options.pages ?? "1-").indices(pageCount: document.pageCount)
            let interrupt = InterruptWatch()
            let cancellation = interrupt.cancellation
            if let pageFiles {
                return try withExtendedLifetime(interrupt) {
                    try writeFiles(document, indices: indices, output: pageFiles, cancellation: cancellation, failures: &failures)
                }
            }
            if chosenFormat == .markdown || chosenFormat == .html {
                let tagged = try document.taggedStructure(pages: indices)
                let taggedIndices = Set(tagged.map(\.index))
                var pages: [Int: TextPage] = [:]
                try document.forEachPage(indices.filter { !taggedIndices.contains($0) }, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
                    try document.textPage(pageAt: index)
                } deliver: { index, result in
                    switch result {
                    case .success(let page): pages[index] = page
                    case .failure(let error): failures.record(error, page: index + 1)
                    }
                }
                // The analysis is this program's own work, not the engine's: the stall watch,
                // which ends a run whose engine makes no progress, waits for it.
                StallWatch.pause()
                let structure = try document.structuredText(
                    pages: indices, tagged: tagged, inferringFrom: indices.compactMap { index in pages[index].map { (index: index, page: $0) } })
                StallWatch.resume()
                let title = try document.info().title.flatMap { $0.isEmpty ? nil : $0 }
                let written = chosenFormat == .markdown
                    ? structure.markdown : structure.html(title: title ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent)
                try withExtendedLifetime(interrupt) { try write(written) }
                return
            }
            if chosenFormat == .json {
                var pages: [PageReport] = []
                try document.forEachPage(indices, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
                    let words = try document.textPage(pageAt: index).words.map {
                        PageReport.Word(
                            text: $0.text, x: $0.bounds.minX, y: $0.bounds.minY, width: $0.bounds.size.width, height: $0.bounds.size.height,
                            confidence: $0.confidence)
                    }
                    return (text: try document.text(pageAt: index), words: words)
                } deliver: { index, result in
                    switch result {
                    case .success(let page): pages.append(PageReport(page: numbering.name(index), text: page.text, words: page.words))
                    case .failure(let error): failures.record(error, page: index + 1)
                    }
                }
                return try JSONOutput.print(pages)
            }
            // Pages go to stdout as they come, or into one buffer that becomes the file whole.
            var first = true
            var collected = oneFile == nil ? nil : ""
            try document.forEachPage(indices, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
                try document.text(pageAt: index)
            } deliver: { index, result in
                switch result {
                case .success(let text):
                    let page = (first ? "" : "\u{0C}") + text + (text.hasSuffix("\n") ? "" : "\n")
                    first = false
                    if collected != nil { collected! += page } else { print(page, terminator: "") }
                case .failure(let error): failures.record(error, page: index + 1)
                }
            }
            if let collected { try write(collected) }
            withExtendedLifetime(interrupt) {}
        }
        try failures.finish()
    }

    /// Writes `text` whole to the one file -o names, or to stdout.
    private func write(_ text: String) throws {
        guard let oneFile else { return print(text, terminator: "") }
        do {
            try AtomicFile.write(Data(text.utf8), to: oneFile)
        } catch {
            throw RendererError(.ioFailure, "cannot write \(oneFile): \(error.reason)")
        }
    }

    /// Writes each page's text (UTF-8) to its own file, whole or not at all, recording them in
    /// the manifest with --shard or --resume.
    private func writeFiles(
        _ document: Document, indices: [Int], output: String, cancellation: Cancellation, failures: inout PageFailures
    ) throws {
        let naming = try OutputNaming(output: output, document: file, fileExtension: "txt", fileExtensions: [], pageCount: indices.count, documentPageCount: document.pageCount)
        let plan = try shardOptions.plan(
            selected: indices, command: "text", document: file,
            settings: "text, \(document.rendererID) \(document.engineVersion)", directory: naming.directory,
            readsVault: global.vault != nil)
        let describes = plan != nil
        try document.forEachPage(plan?.pages ?? indices, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
            let start = ContinuousClock.now
            let path = naming.path(forPage: index + 1)
            do {
                try AtomicFile.write(Data(try document.text(pageAt: index).utf8), to: path)
            } catch let error as RendererError {
                throw error
            } catch {
                throw RendererError(.ioFailure, "cannot write \(path): \(error.reason)")
            }
            return (path: path, facts: describes ? try BatchPlan.describe(path, since: start) : nil)
        } deliver: { index, result in
            switch result {
            case .success(let written):
                if let plan, let facts = written.facts { try plan.record(page: index, path: written.path, facts) }
                Failure.printProgress("page \(index + 1): \(written.path)")
            case .failure(let error): failures.record(error, page: index + 1)
            }
        }
    }
}
