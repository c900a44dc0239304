import ArgumentParser
import Foundation
import HostCommands
import RendererComparison
import RendererProvider

struct DiffCommand: HostSubcommand, ReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare one document with another: pages added or missing, each page's pixels and text, metadata, fonts, annotations, form values.",
        discussion: """
            Both documents are drawn by the same renderer (the one that opens the first). Pages are matched by their text, \
            so one inserted page is one difference. Exits 0 when the documents match, 1 when they differ.
            """)

    @ParentCommand var hostApp: HostApp

    @Argument(help: "The first document, the reference.", completion: .file(extensions: ["pdf"]))
    var first: String

    @Argument(help: "The second document, compared with the first.", completion: .file(extensions: ["pdf"]))
    var second: String

    @Option(name: [.customShort("r"), .long], help: "Resolution the pages are drawn at.")
    var dpi: Double = 72

    @Option(help: "A pixel differs when a colour channel differs by more than this (0-255).")
    var channelThreshold: Int = PixelTolerance().channel

    @Option(help: "The share of a page's pixels that may differ (0-1).")
    var maxDiffering: Double = PixelTolerance().differingShare

    @Flag(inversion: .prefixedNo, help: "Let an edge moved by less than a pixel pass (the default), or count every moved pixel.")
    var subpixelShifts = PixelTolerance().ignoresSubpixelShifts

    @Flag(help: "Every pixel exactly the same: --channel-threshold 0 --max-differing 0 --no-subpixel-shifts.")
    var exact = false

    @Option(help: "Write an HTML report into this directory: each differing page side by side and overlaid.")
    var html: String?

    @Option(help: "Write JUnit XML into this file, one test case a page and one an aspect of the structure.")
    var junit: String?

    @Flag(help: "Print JSON.")
    var json = false
    @OptionGroup var globalArguments: GlobalArguments

    func validate() throws {
        if !(dpi.isFinite && dpi > 0) { throw ValidationError("--dpi must be a positive number") }
        if !(0...255).contains(channelThreshold) { throw ValidationError("--channel-threshold must be from 0 to 255") }
        if !(maxDiffering.isFinite && (0...1).contains(maxDiffering)) { throw ValidationError("--max-differing must be from 0 to 1") }
    }

    var tolerance: PixelTolerance {
        exact ? .exact : PixelTolerance(channel: channelThreshold, differingShare: maxDiffering, ignoresSubpixelShifts: subpixelShifts)
    }

    func execute() throws {
        let a = try global.open(first)
        let b = try global.registry().open(.file(second), password: try global.password(), renderer: .id(a.rendererID))
        // The report shows both documents' pages and text: an export and a copy of each.
        try global.checkSettings(permit: [.printing, .copying], on: first, opened: a)
        try global.checkSettings(permit: [.printing, .copying], on: second, opened: b)
        let names = (reference: URL(fileURLWithPath: first).lastPathComponent, compared: URL(fileURLWithPath: second).lastPathComponent)
        let distinct = names.reference == names.compared ? (reference: first, compared: second) : names
        let comparison = try SnapshotComparison(
            reference: LiveSnapshotSource(document: a, dpi: dpi), compared: LiveSnapshotSource(document: b, dpi: dpi),
            tolerance: tolerance, names: distinct)
        let report = DiffReport(comparison: comparison, first: first, second: second)
        if let html { try report.writeHTML(into: html) }
        if let junit { try report.writeJUnit(to: junit) }
        if json {
            try JSONOutput.print(report.summary)
        } else {
            print(report.text)
        }
        if !comparison.passed { throw ExitCode(1) }
    }
}
