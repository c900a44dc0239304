import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct RenderCommand: DocumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "render", abstract: "Render pages (or a clip of them) to PNG, JPEG, PPM/PGM or PAM files, or one page to stdout.")

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case png, jpeg, ppm, pam

        /// Reads a format's name, or a file name extension that stands for one (`jpg`, `pgm`).
        init?(argument: String) {
            switch argument.lowercased() {
            case "jpg": self = .jpeg
            case "pgm", "pnm": self = .ppm
            default: self.init(rawValue: argument.lowercased())
            }
        }

        var fileFormat: ImageFileFormat {
            switch self {
            case .png: .png
            case .jpeg: .jpeg
            case .ppm: .pnm
            case .pam: .pam
            }
        }

        /// The extensions of a file name that `-o` takes as one image file.
        static let fileExtensions: Set<String> = ["png", "jpg", "jpeg", "ppm", "pgm", "pnm", "pam"]
    }

    @ParentCommand var hostApp: HostApp

    @Option(help: "Pages to render, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).")
    var pages: String?

    @Option(name: [.customShort("r"), .long], help: "Resolution in dots per inch (default: 150).")
    var dpi: Double?

    @Option(help: ArgumentHelp(
        "Scale each page to fit in a square of this many pixels (its longer side this long), as pdftoppm's -scale-to; in place of --dpi.",
        valueName: "pixels"))
    var scaleTo: Int?

    @Option(name: [.customShort("W"), .long], help: ArgumentHelp("Fit each page in this width in pixels, as mutool draw's -w; in place of --dpi.", valueName: "pixels"))
    var width: Int?

    @Option(name: [.customShort("H"), .long], help: ArgumentHelp("Fit each page in this height in pixels, as mutool draw's -h; in place of --dpi.", valueName: "pixels"))
    var height: Int?

    @Option(help: "Output format: png, jpeg, ppm (PGM with --gray) or pam (default: the extension of -o's file name, else png).")
    var format: Format?

    @Option(help: ArgumentHelp("JPEG quality, 1 to 100 (default: \(Bitmap.defaultJPEGQuality), as pdftoppm -jpeg).", valueName: "1-100"))
    var quality: Int?

    @Flag(help: "Render in gray.")
    var gray = false

    @Flag(help: "Render RGBA on a transparent background (png or pam).")
    var alpha = false

    @Flag(inversion: .prefixedNo, help: "Draw the annotations and form fields' widgets over the page's content (the default), or only the content.")
    var annotations = true

    @Option(name: [.customLong("optional-content-off"), .customLong("layers-off")], parsing: .upToNextOption, help: ArgumentHelp(
        "Hide the optional-content groups (layers) of these names (hostapp info lists them), whatever the document's default. --layers-off, its former name, still works in this release.",
        valueName: "name"))
    var optionalContentOff: [String] = []

    @Option(name: [.customLong("optional-content-on"), .customLong("layers-on")], parsing: .upToNextOption, help: ArgumentHelp(
        "Show the optional-content groups (layers) of these names, whatever the document's default. --layers-on, its former name, still works in this release.",
        valueName: "name"))
    var optionalContentOn: [String] = []

    @Option(help: "The page box to draw: media, crop (the default), bleed, trim or art; --clip is then from its top-left corner.")
    var box: PageBox = .crop

    @Option(help: ArgumentHelp("Render only this rectangle of each page, in points from its top-left corner.", valueName: "x,y,w,h"))
    var clip: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "A directory (created if missing; files are named NAME-PAGE.EXT), a file name pattern with %d or %0Nd for the page number, or, for one page, an image file name (page.png, page.jpg) or - for stdout.",
        valueName: "dir-pattern-or-file"))
    var output: String = "."

    @Flag(help: "Show a progress bar on stderr even when it is not a terminal.")
    var progress = false

    @OptionGroup var pngOptions: PNGOptions
    @OptionGroup var jobOptions: JobOptions
    @OptionGroup var shardOptions: ShardOptions
    @OptionGroup var documentArguments: DocumentArguments

    func validate() throws {
        if gray && alpha { throw ValidationError("--gray and --alpha exclude each other") }
        if alpha && (outputFormat == .ppm || outputFormat == .jpeg) {
            throw ValidationError("\(outputFormat == .ppm ? "PPM" : "JPEG") has no alpha channel: use --format png or pam with --alpha")
        }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be from 1 to 100") }
        if quality != nil && outputFormat != .jpeg { throw ValidationError("--quality is for JPEG: give --format jpeg or a .jpg file name") }
        if let dpi {
            if !(dpi.isFinite && dpi > 0) { throw ValidationError("--dpi must be a positive number") }
            if dpi > global.maximumDPI { throw ValidationError("--dpi \(dpi.groupedText) is more than the limit of \(global.maximumDPI.groupedText) (--max-dpi)") }
        }
        for (name, value) in [("--scale-to", scaleTo), ("--width", width), ("--height", height)] {
            if let value, value < 1 { throw ValidationError("\(name) must be a positive number of pixels") }
        }
        if scaleTo != nil && (width != nil || height != nil) { throw ValidationError("--scale-to and --width/--height exclude each other") }
        if dpi != nil && fitting != nil { throw ValidationError("--dpi and a size in pixels (--scale-to, --width, --height) exclude each other") }
        _ = try clipRect()
        if let both = Set(optionalContentOn).intersection(optionalContentOff).sorted().first {
            throw ValidationError("optional-content group \"\(both)\" is given to both --optional-content-on and --optional-content-off")
        }
    }

    /// The format given, else the one -o's file name extension names, else PNG.
    private var outputFormat: Format {
        if let format { return format }
        return output == "-" ? .png : Format(argument: URL(fileURLWithPath: output).pathExtension) ?? .png
    }

    /// The box each page is fitted into: --scale-to's square, or --width and --height (one
    /// alone leaves the other side free).
    private var fitting: PixelSize? {
        if let scaleTo { return PixelSize(width: scaleTo, height: scaleTo) }
        guard width != nil || height != nil else { return nil }
        return PixelSize(width: width ?? Int(Int32.max), height: height ?? Int(Int32.max))
    }

    func run() throws {
        var failures = PageFailures()
        try Failure.reporting {
            let document = try global.open(file, needing: [.render])
            // Rendering to files is an export.
            try global.checkSettings(permit: [.printing], on: file, opened: document)
            let indices = try PageSelection(text: pages ?? "1-").indices(pageCount: document.pageCount)
            var options = global.renderOptions(
                dpi: dpi ?? 150, clip: try clipRect(), pixelFormat: gray ? .gray : alpha ? .rgba : .rgb,
                background: alpha ? .transparent : .white, annotations: annotations, box: box)
            options.fitting = fitting
            let encoding = ImageEncoding(png: pngOptions.encoding, jpegQuality: quality ?? Bitmap.defaultJPEGQuality)
            options.optionalContent = try OptionalContentVisibility(shown: optionalContentOn, hidden: optionalContentOff, in: document)
            let format = outputFormat.fileFormat
            let naming = try OutputNaming(
                output: output, document: file, fileExtension: format.fileExtension(for: options.pixelFormat),
                fileExtensions: Format.fileExtensions, pageCount: indices.count, documentPageCount: document.pageCount)
            if naming.writesStandardOutput && shardOptions.keepsManifest {
                throw RendererError(.invalidArgument, "--shard and --resume record page files: they exclude -o -")
            }
            let plan = try shardOptions.plan(
                selected: indices, command: "render", document: file, settings: settings(options, encoding, format: format, document: document),
                directory: naming.directory, readsVault: global.vault != nil)
            let interrupt = InterruptWatch()
            let cancellation = interrupt.cancellation
            let pages = plan?.pages ?? indices
            var bar = ProgressBar(total: pages.count, forced: progress)
            let describes = plan != nil
            try document.forEachPage(pages, jobs: jobOptions.jobs, cancellation: cancellation) {
                bar.update(done: $0)
            } work: { [global, options, encoding] document, index in
                let start = ContinuousClock.now
                let path = naming.path(forPage: index + 1)
                let pageCancellation = global.pageCancellation(within: cancellation)
                let size = path == "-"
                    ? try Self.renderToStandardOutput(
                        document, pageAt: index, options: options, as: format, encoding: encoding, cancellation: pageCancellation)
                    : try document.render(
                        pageAt: index, options: options, as: format, to: path, png: encoding.png, jpegQuality: encoding.jpegQuality,
                        cancellation: pageCancellation)
                return (path: path, width: size.width, height: size.height, facts: describes ? try BatchPlan.describe(path, since: start) : nil)
            } deliver: { index, result in
                switch result {
                case .success(let written):
                    if let plan, let facts = written.facts { try plan.record(page: index, path: written.path, facts) }
                    // What was written, as progress on stderr: stdout holds only results (or the image, with -o -).
                    let place = written.path == "-" ? "standard output" : written.path
                    Failure.printProgress("page \(index + 1): \(place) (\(written.width)x\(written.height))")
                case .failure(let error): failures.record(error, page: index + 1)
                }
            }
            bar.finish()
            withExtendedLifetime(interrupt) {}
        }
        try failures.finish()
    }

    /// Draws the page and writes its image file to standard output: written to a temporary
    /// file by the same encoders as every other page, then copied.
    private static func renderToStandardOutput(
        _ document: Document, pageAt index: Int, options: RenderOptions, as format: ImageFileFormat, encoding: ImageEncoding,
        cancellation: Cancellation
    ) throws -> (width: Int, height: Int) {
        let folder = try TemporaryFolder.make(named: "hostapp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/page"
        let size = try document.render(
            pageAt: index, options: options, as: format, to: path, png: encoding.png, jpegQuality: encoding.jpegQuality, cancellation: cancellation)
        do {
            StandardStream.output.write(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RendererError(.ioFailure, "cannot write the image to standard output: \(error.reason)")
        }
        return size
    }

    /// What shapes the files, for the manifest: a rerun with other settings starts anew.
    private func settings(_ options: RenderOptions, _ encoding: ImageEncoding, format: ImageFileFormat, document: Document) -> String {
        let resolution = options.fitting.map { "fit \($0.width)x\($0.height) px" } ?? "\(options.dpi.groupedText) dpi"
        var parts = [outputFormat.rawValue, resolution, "\(options.pixelFormat)", "\(document.rendererID) \(document.engineVersion)"]
        if format == .jpeg { parts.append("quality \(encoding.jpegQuality)") }
        if let clip = options.clip { parts.append("clip \(clip.minX),\(clip.minY),\(clip.size.width),\(clip.size.height)") }
        if !options.annotations { parts.append("no annotations") }
        if options.box != .crop { parts.append("\(options.box.rawValue) box") }
        if format == .png {
            let png = encoding.png
            parts.append("level \(png.level) \(png.filter.rawValue)\(png.reducesChannels ? "" : " all channels")")
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

extension OptionalContentVisibility {
    /// The document's optional-content groups named in `shown` shown and those named in
    /// `hidden` hidden, every group of each name; `invalidArgument`, listing the names there
    /// are, for a name no group has.
    init(shown: [String], hidden: [String], in document: Document) throws {
        guard !shown.isEmpty || !hidden.isEmpty else {
            self.init()
            return
        }
        let groups = try document.optionalContentGroups()
        func indices(_ names: [String]) throws -> Set<Int> {
            try Set(names.flatMap { name in
                let named = groups.filter { $0.name == name }.map(\.index)
                guard !named.isEmpty else {
                    let known = groups.isEmpty
                        ? "the document has no optional content" : "its optional-content groups are " + groups.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    throw RendererError(.invalidArgument, "no optional-content group is named \"\(name)\"; \(known)")
                }
                return named
            })
        }
        self.init(shown: try indices(shown), hidden: try indices(hidden))
    }
}
