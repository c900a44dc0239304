import ArgumentParser
import Foundation
import RendererProvider

struct RenderCommand: HostSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render pages (or a clip of them) to PNG, PPM/PGM or PAM files.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, ppm, pam

        var fileFormat: ImageFileFormat {
            switch self {
            case .png: .png
            case .ppm: .pnm
            case .pam: .pam
            }
        }
    }

    @OptionGroup var globalArguments: GlobalArguments
    @ParentCommand var hostApp: HostApp

    @Argument(help: "The PDF file.", completion: .file(extensions: ["pdf"]))
    var file: String

    @Option(help: "Pages to render, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).")
    var pages: String?

    @Option(name: [.customShort("r"), .long], help: "Resolution in dots per inch.")
    var dpi: Double = 150

    @Option(help: "Output format: png, ppm (PGM with --gray) or pam.")
    var format: Format = .png

    @Flag(help: "Render in gray.")
    var gray = false

    @Flag(help: "Render RGBA on a transparent background (png or pam).")
    var alpha = false

    @Flag(inversion: .prefixedNo, help: "Draw the annotations and form fields' widgets over the page's content (the default), or only the content.")
    var annotations = true

    @Option(help: "The page box to draw: media, crop (the default), bleed, trim or art; --clip is then from its top-left corner.")
    var box: PageBox = .crop

    @Option(help: ArgumentHelp("Render only this rectangle of each page, in points from its top-left corner.", valueName: "x,y,w,h"))
    var clip: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "A directory (created if missing; files are named NAME-PAGE.EXT) or a file name pattern with %d or %0Nd for the page number.",
        valueName: "dir-or-pattern"))
    var output: String = "."

    @Flag(help: "Show a progress bar on stderr even when it is not a terminal.")
    var progress = false

    @OptionGroup var pngOptions: PNGOptions
    @OptionGroup var jobOptions: JobOptions
    @OptionGroup var shardOptions: ShardOptions

    func validate() throws {
        if gray && alpha { throw ValidationError("--gray and --alpha exclude each other") }
        if alpha && format == .ppm { throw ValidationError("PPM has no alpha channel: use --format png or pam with --alpha") }
        if !(dpi.isFinite && dpi > 0) { throw ValidationError("--dpi must be a positive number") }
        if dpi > global.maximumDPI { throw ValidationError("--dpi \(dpi.formatted()) is more than the limit of \(global.maximumDPI.formatted()) (--max-dpi)") }
        _ = try clipRect()
    }

    func run() throws {
        var failures = PageFailures()
        try Failure.reporting {
            // Rendering to files is an export: with --settings, the session checks that it is allowed.
            if global.settings != nil {
                let session = try global.openSession(file)
                defer { session.close() }
                try session.check(.printing)
            }
            let document = try global.openForPages(file, needing: [.render])
            let indices = try PageSelection(text: pages ?? "1-").indices(pageCount: document.reader.pageCount)
            let options = global.renderOptions(
                dpi: dpi, clip: try clipRect(), pixelFormat: gray ? .gray : alpha ? .rgba : .rgb,
                background: alpha ? .transparent : .white, annotations: annotations, box: box, png: pngOptions.encoding)
            let naming = try OutputNaming(output: output, document: file, fileExtension: format.fileFormat.fileExtension(for: options.pixelFormat))
            let plan = try shardOptions.plan(
                selected: indices, command: "render", document: file, settings: settings(options, document: document.reader),
                directory: naming.directory, readsVault: global.vault != nil)
            let format = self.format.fileFormat
            let interrupt = InterruptWatch()
            let cancellation = interrupt.cancellation
            let pages = plan?.pages ?? indices
            var bar = ProgressBar(total: pages.count, forced: progress)
            let describes = plan != nil
            try document.forEachPage(pages, jobs: jobOptions.jobs, cancellation: cancellation) {
                bar.update(done: $0)
            } work: { [global] document, index in
                let start = ContinuousClock.now
                let path = naming.path(forPage: index + 1)
                let size = try document.render(
                    pageAt: index, options: options, as: format, to: path, cancellation: global.pageCancellation(within: cancellation))
                return (path: path, width: size.width, height: size.height, facts: describes ? try BatchPlan.describe(path, since: start) : nil)
            } deliver: { index, result in
                switch result {
                case .success(let written):
                    if let plan, let facts = written.facts { try plan.record(page: index, path: written.path, facts) }
                    print("page \(index + 1): \(written.path) (\(written.width)x\(written.height))")
                case .failure(let error): failures.record(error, page: index + 1)
                }
            }
            bar.finish()
            withExtendedLifetime(interrupt) {}
        }
        try failures.finish()
    }

    /// What shapes the files, for the manifest: a rerun with other settings starts anew.
    private func settings(_ options: RenderOptions, document: any DocumentReading) -> String {
        var parts = [format.rawValue, "\(options.dpi.formatted()) dpi", "\(options.pixelFormat)", "\(document.rendererID) \(document.engineVersion)"]
        if let clip = options.clip { parts.append("clip \(clip.minX),\(clip.minY),\(clip.size.width),\(clip.size.height)") }
        if !options.annotations { parts.append("no annotations") }
        if options.box != .crop { parts.append("\(options.box.rawValue) box") }
        if format == .png {
            let png = options.png
            parts.append(png.encoder == .engine ? "engine encoder" : "level \(png.level) \(png.filter.rawValue)\(png.reducesChannels ? "" : " all channels")")
        }
        return parts.joined(separator: ", ")
    }

    private func clipRect() throws -> PageRect? {
        guard let clip else { return nil }
        let numbers = clip.split(separator: ",").compactMap { Double($0.trimmingWhitespace) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[2] > 0, numbers[3] > 0 else {
            throw ValidationError("--clip takes four numbers x,y,w,h in points, with a positive width and height")
        }
        return PageRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }
}

/// `--box media|crop|bleed|trim|art`.
extension PageBox: ExpressibleByArgument {}
