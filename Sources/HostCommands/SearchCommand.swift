import ArgumentParser
import RendererProvider

struct SearchCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find a term: each hit's page and box, then the number of hits; a page that cannot be read is reported and skipped.",
        discussion: "Exits 0 when the term was found, 1 when it was not (as grep does), and with an error's code when a page could not be read.")

    @ParentCommand var hostApp: HostApp
    @OptionGroup var options: PageOptions

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Argument(help: "The text to find.")
    var term: String

    @Flag(help: "Match upper and lower case exactly.")
    var caseSensitive = false

    @Flag(help: "Match whole words only.")
    var wholeWord = false

    @Flag(help: "Match letters whatever their accents: resume finds résumé (ligatures such as ﬁ always match their letters).")
    var ignoreAccents = false

    @OptionGroup var jobOptions: JobOptions
    @OptionGroup var globalArguments: GlobalArguments

    struct Hit: Encodable {
        var page: String
        var x, y, width, height: Double
        var quads: [Quad]
    }

    struct Report: Encodable {
        var term: String
        var count: Int
        var hits: [Hit]
    }

    func run() throws {
        var failures = PageFailures()
        var found = false
        try Failure.reporting {
            let document = try global.open(file, needing: [.text])
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            let (term, searchOptions) = (term, SearchOptions(caseSensitive: caseSensitive, wholeWord: wholeWord, ignoresAccents: ignoreAccents))
            var hits: [Hit] = []
            let interrupt = InterruptWatch()
            let batch = BatchOptions(jobs: jobOptions.jobs, cancellation: interrupt.cancellation) { _ in StallWatch.progress() }
            try document.forEachPage(try options.indices(in: document), options: batch) { document, index in
                try PageFailures.catching { try document.search(term, pageAt: index, options: searchOptions) }
            } deliver: { index, result in
                switch result {
                case .success(let pageHits):
                    for hit in pageHits {
                        let bounds = hit.bounds
                        let entry = Hit(
                            page: numbering.name(hit.pageIndex), x: bounds.minX, y: bounds.minY, width: bounds.size.width,
                            height: bounds.size.height, quads: hit.quads)
                        if !options.json { print("page \(entry.page): \(PageNumbering.describe(bounds))") }
                        hits.append(entry)
                    }
                case .failure(let error): failures.record(error, page: index + 1)
                }
            }
            withExtendedLifetime(interrupt) {}
            found = !hits.isEmpty
            if options.json {
                try JSONOutput.print(Report(term: term, count: hits.count, hits: hits))
            } else {
                print("\(hits.count) hit\(hits.count == 1 ? "" : "s")")
            }
        }
        try failures.finish()
        if !found { throw ExitCode(1) }
    }
}
