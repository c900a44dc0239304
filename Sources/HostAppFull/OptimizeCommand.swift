import ArgumentParser
import HostCommands
import RendererOptimize
import RendererProvider

/// `hostapp optimize`: a copy for fast web view, smaller.
struct OptimizeCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize", abstract: "Write a copy of a PDF for fast web view: linearised, in compressed object streams.",
        discussion: """
            The copy (written by qpdf's library) is linearised, so that a browser or viewer shows the first page \
            before the rest of the file arrives; its objects are packed into compressed object streams with a \
            cross-reference stream, every stream is compressed, a picture, font or other stream embedded more than \
            once is kept once, and objects nothing refers to are left out. Pages, fonts, images and encryption are \
            kept as they are. -o may name the input itself: it is replaced only \
            once the copy is whole.
            """)

    @ParentCommand var hostApp: HostApp
    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The optimised copy.", valueName: "output")) var output: String
    @Option(help: ArgumentHelp("Resample images finer than this on their page to it, as JPEG (default: keep every image).", valueName: "dpi"))
    var imageDPI: Double?
    @Option(help: ArgumentHelp("The JPEG quality of resampled images, 1 to 100.", valueName: "quality"))
    var jpegQuality = Bitmap.defaultJPEGQuality
    @OptionGroup var documentArguments: DocumentArguments

    func execute() throws {
        try global.checkSettings(permit: [.saveTo], on: file)
        let options = PDFOptimizer.Options(imageDPI: imageDPI, jpegQuality: jpegQuality)
        let report = try PDFOptimizer.optimize(file, to: output, password: try global.password(), options: options)
        let merged = report.duplicateStreamsMerged == 0 ? "" : ", \(report.duplicateStreamsMerged) repeated stream\(report.duplicateStreamsMerged == 1 ? "" : "s") kept once"
        let images = imageDPI == nil ? "" : ", \(report.imagesResampled) image\(report.imagesResampled == 1 ? "" : "s") resampled"
        print("wrote \(output): \(Double(report.outputBytes).groupedText) bytes, \(Int((report.ratio * 100).rounded()))% of \(Double(report.inputBytes).groupedText)\(merged)\(images)")
    }
}
