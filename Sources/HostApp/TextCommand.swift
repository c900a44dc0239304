import ArgumentParser
import RendererProvider

struct TextCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "text", abstract: "Print the text of pages in reading order (a form feed between pages), or words with boxes as JSON.")

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp
    @OptionGroup var options: PageOptions
    @OptionGroup var jobOptions: JobOptions

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    struct PageReport: Encodable {
        struct Word: Encodable {
            var text: String
            var x, y, width, height: Double
        }
        var page: String
        var text: String
        var words: [Word]
    }

    func run() throws {
        var failures = PageFailures()
        try Failure.reporting {
            let document = try global.openForPages(file, needing: [.text])
            let labels = options.labels ? try document.reader.pageInfos().map(\.label) : nil
            let indices = try PageSelection(text: options.pages ?? "1-").indices(pageCount: document.reader.pageCount)
            let interrupt = InterruptWatch()
            let cancellation = interrupt.cancellation
            if options.json {
                var pages: [PageReport] = []
                try document.forEachPage(indices, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
                    let words = try document.textPage(pageAt: index).words.map {
                        PageReport.Word(text: $0.text, x: $0.bounds.minX, y: $0.bounds.minY, width: $0.bounds.size.width, height: $0.bounds.size.height)
                    }
                    return (text: try document.text(pageAt: index), words: words)
                } deliver: { index, result in
                    switch result {
                    case .success(let page): pages.append(PageReport(page: labels?[index] ?? String(index + 1), text: page.text, words: page.words))
                    case .failure(let error): failures.record(error, page: index + 1)
                    }
                }
                return try JSONOutput.print(pages)
            }
            var first = true
            try document.forEachPage(indices, jobs: jobOptions.jobs, cancellation: cancellation, progress: { _ in }) { document, index in
                try document.text(pageAt: index)
            } deliver: { index, result in
                switch result {
                case .success(let text):
                    if !first { print("\u{0C}", terminator: "") }
                    first = false
                    print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
                case .failure(let error): failures.record(error, page: index + 1)
                }
            }
            withExtendedLifetime(interrupt) {}
        }
        try failures.finish()
    }
}
