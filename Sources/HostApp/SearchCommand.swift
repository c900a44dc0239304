import ArgumentParser
import RendererProvider

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find a term: each hit's page and box, then the number of hits.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var options: PageOptions

    @Argument(help: "The PDF file.")
    var file: String

    @Argument(help: "The text to find.")
    var term: String

    @Flag(help: "Match upper and lower case exactly.")
    var caseSensitive = false

    @Flag(help: "Match whole words only.")
    var wholeWord = false

    @OptionGroup var jobOptions: JobOptions

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
        try Failure.reporting {
            let document = try global.open(file, needing: [.text])
            let numbering = try PageNumbering(document: document, useLabels: options.labels)
            let searchOptions = SearchOptions(caseSensitive: caseSensitive, wholeWord: wholeWord)
            var hits: [Hit] = []
            let interrupt = InterruptWatch()
            let batch = BatchOptions(jobs: jobOptions.jobs, cancellation: interrupt.cancellation) { _ in StallWatch.progress() }
            try document.search(term, options: searchOptions, pages: try options.indices(in: document), batch: batch) { hit in
                let bounds = hit.bounds
                let entry = Hit(
                    page: numbering.name(hit.pageIndex), x: bounds.minX, y: bounds.minY, width: bounds.size.width,
                    height: bounds.size.height, quads: hit.quads)
                if !options.json { print("page \(entry.page): \(PageNumbering.describe(bounds))") }
                hits.append(entry)
            }
            withExtendedLifetime(interrupt) {}
            if options.json {
                try JSONOutput.print(Report(term: term, count: hits.count, hits: hits))
            } else {
                print("\(hits.count) hit\(hits.count == 1 ? "" : "s")")
            }
        }
    }
}
