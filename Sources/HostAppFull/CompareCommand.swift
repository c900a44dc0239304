import ArgumentParser
import HostCommands
import Foundation
import RendererComparison
import RendererProvider

struct CompareCommand: DocumentCommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare what two or more renderers make of a document: pixels, text, sizes, links, outline.",
        discussion: "Exits 1 when any page fails the thresholds (see ComparisonThresholds for the defaults).")

    @ParentCommand var hostApp: HostApp

    @Option(name: [.customLong("renderers"), .customLong("backends")], help: "Renderers to compare, the first being the reference (--backends is its former name).")
    var renderers: String = "mupdf,poppler"

    @Option(help: "Pages, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).")
    var pages: String?

    @Option(name: [.customShort("r"), .long], help: "Resolution of the compared renders.")
    var dpi: Double = 100

    @Flag(inversion: .prefixedNo, help: "Draw the annotations in the compared renders (the default), or compare the pages' content alone.")
    var annotations = true

    @Option(help: "Write an HTML report with the renders and heat maps into this directory.")
    var report: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: "A pixel differs when a channel differs by more than this (0-255).")
    var channelThreshold: Int = ComparisonThresholds().channel

    @Option(help: "Most pixels that may differ even allowing a 1-pixel shift (0-1).")
    var maxDiffering: Double = ComparisonThresholds().maximumShiftedDifferingShare

    @Option(help: "Most of the inked area that may differ even allowing a 1-pixel shift (0-1).")
    var maxDifferingOfInk: Double = ComparisonThresholds().maximumShiftedDifferingShareOfInk

    @Option(help: "Least share of words the texts must have in common (0-1).")
    var minTextAgreement: Double = ComparisonThresholds().minimumTextAgreement
    @OptionGroup var documentArguments: DocumentArguments

    func validate() throws {
        if !(dpi.isFinite && dpi > 0) { throw ValidationError("--dpi must be a positive number") }
        if rendererIDs.count < 2 { throw ValidationError("--renderers needs at least two renderers, such as mupdf,poppler") }
    }

    private var rendererIDs: [String] {
        renderers.split(separator: ",").map { String($0.trimmingWhitespace).lowercased() }.filter { !$0.isEmpty }
    }

    func execute() throws {
        let registry = global.registry()
        let thresholds = ComparisonThresholds(
            channel: channelThreshold, maximumShiftedDifferingShare: maxDiffering,
            maximumShiftedDifferingShareOfInk: maxDifferingOfInk, minimumTextAgreement: minTextAgreement)
        var comparer = DocumentComparer(dpi: dpi, thresholds: thresholds)
        comparer.drawsAnnotations = annotations
        // Pages are chosen against the document as whichever renderer can open it sees it.
        let password = try global.password()
        var indices: [Int]?
        if let pages {
            let document = try registry.open(.file(file), password: password, renderer: .auto)
            indices = try PageSelection(text: pages).indices(pageCount: document.pageCount)
        }
        let writer = try report.map { try ComparisonReport(directory: $0) }
        let comparison = try comparer.compare(
            .file(file), password: password, renderers: rendererIDs, registry: registry, pages: indices,
            images: writer.map { writer in { try writer.write($0) } })
        if let writer { try writer.finish(comparison, file: file) }
        if json {
            try JSONOutput.print(comparison)
        } else {
            ComparisonTable.print(comparison)
            if let report { print("Report: \(URL(fileURLWithPath: report).appendingPathComponent("index.html").path)") }
        }
        if !comparison.passed { throw ExitCode(1) }
    }
}

/// The comparison as a table: one row per page, then a summary line per candidate.
enum ComparisonTable {
    static func print(_ comparison: DocumentComparison) {
        for candidate in comparison.candidates {
            Swift.print("\(candidate.renderer) against \(comparison.reference), \(PageNumbering.number(comparison.dpi)) dpi\(comparison.annotationsDrawn ? "" : ", without annotations")")
            Swift.print("Page  Differ   Shifted  Of ink   PSNR       Text   Result")
            for page in candidate.pages {
                let pixels = page.pixels
                let cells = [
                    String(page.pageIndex + 1).leftPadded(to: 4),
                    (pixels.map { Figures.percent($0.differingShare) } ?? "-").leftPadded(to: 7),
                    (pixels.map { Figures.percent($0.shiftedDifferingShare) } ?? "-").leftPadded(to: 7),
                    (pixels.map { Figures.percent($0.shiftedDifferingShareOfInk) } ?? "-").leftPadded(to: 7),
                    (pixels.map { Figures.psnr($0.psnr) } ?? "-").leftPadded(to: 9),
                    (page.textAgreement.map { Figures.percent($0) } ?? "-").leftPadded(to: 7),
                ]
                let result = page.passed ? "pass" : "FAIL  " + page.failures.joined(separator: "; ")
                Swift.print(cells.joined(separator: "  ") + "  " + result)
            }
            let failed = candidate.pages.filter { !$0.passed }.map { String($0.pageIndex + 1) }
            var summary = "\(candidate.pages.count) page\(candidate.pages.count == 1 ? "" : "s") compared, \(failed.count) failed"
            if !failed.isEmpty { summary += " (page\(failed.count == 1 ? "" : "s") \(failed.joined(separator: ", ")))" }
            for difference in candidate.differences { summary += "; \(difference)" }
            Swift.print("\(candidate.passed ? "PASS" : "FAIL"): \(summary)")
        }
        for odd in comparison.oddOnesOut {
            Swift.print("Page \(odd.pageIndex + 1): \(odd.renderer) is the odd one out; the others agree")
        }
    }
}

/// How figures are written in the table and the report.
enum Figures {
    static func percent(_ share: Double) -> String { String(format: "%.2f%%", share * 100) }
    static func psnr(_ value: Double?) -> String { value.map { String(format: "%.1f dB", $0) } ?? "identical" }
}
