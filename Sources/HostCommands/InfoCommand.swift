import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererProvider

struct InfoCommand: DocumentCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "Show a document's metadata (where the engine reads it) and each page's size, rotation and label, or set its metadata.",
        discussion: """
            With --set, the metadata is written into the Info dictionary and the XMP packet alike \
            (keeping the packet's other properties) and saved atomically to the file -o names, or over the input with \
            --in-place; what was written is then shown.
            """)

    @ParentCommand var hostApp: HostApp

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print each page's media, crop, bleed, trim and art boxes (user space, as pdfinfo -box does); JSON always has them.")
    var boxes = false

    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Set a metadata field: \(MetadataSetting.keys.joined(separator: ", ")); an empty value removes it, dates are ISO 8601. Repeatable.",
            valueName: "key=value"))
    var settings: [MetadataSetting] = []

    /// Where and how --set saves.
    @OptionGroup var saving: SaveOptions
    @OptionGroup var documentArguments: DocumentArguments

    /// True when the run writes metadata.
    var writesMetadata: Bool { !settings.isEmpty }

    struct Report: Encodable {
        struct Page: Encodable {
            var number: Int
            var width: Double
            var height: Double
            var rotation: Int
            var label: String
            var boxes: PageBoxes?
        }
        var file: String
        /// The renderer that read the document.
        var renderer: String
        /// The same, under its former name, kept for this release.
        var backend: String
        /// Nil from an engine that reads no metadata (Ghostscript), as ``permissions``.
        var info: DocumentInfo?
        var permissions: [String]?
        /// The pages the engine can load.
        var pages: [Page]
        /// The pages it cannot, each with why (they are also reported on stderr).
        var failedPages: [FailedPage]
        /// The optional-content groups, in the document's order; nil where the engine reads
        /// none (a format other than PDF).
        var optionalContentGroups: [OptionalContentGroup]?
        /// The optional-content configurations, the default first; nil as for
        /// ``optionalContentGroups``.
        var optionalContentConfigurations: [OptionalContentConfiguration]?
        /// The same two, under their former names, kept for this release.
        var layers: [OptionalContentGroup]?
        var layerConfigurations: [OptionalContentConfiguration]?
    }

    struct FailedPage: Encodable {
        var number: Int
        var error: String
    }

    func validate() throws {
        if !writesMetadata, saving.output != nil { throw ValidationError("-o names where --set saves; give --set too") }
    }

    func run() throws {
        var failures = PageFailures()
        try Failure.reporting {
            let shown = writesMetadata ? try writeMetadata() : file
            let document = try global.open(shown)
            let readsMetadata = document.renderer.capabilities(for: document.contentType).contains(.metadata)
            let info = readsMetadata ? try document.info() : nil
            var failed: [FailedPage] = []
            let pages = try Self.pageInfos(of: document) { index, error in
                failures.record(error, page: index + 1)
                failed.append(FailedPage(number: index + 1, error: error.description))
            }.map {
                Report.Page(number: $0.index + 1, width: $0.size.width, height: $0.size.height, rotation: $0.rotation.degrees, label: $0.label, boxes: $0.boxes)
            }
            let readsOptionalContent = document.renderer.capabilities(for: document.contentType).contains(.optionalContent)
            let groups = readsOptionalContent ? try document.optionalContentGroups() : nil
            let configurations = readsOptionalContent ? try document.optionalContentConfigurations() : nil
            let report = Report(
                file: shown, renderer: document.rendererID, backend: document.rendererID, info: info, permissions: info?.permissions.names, pages: pages, failedPages: failed,
                optionalContentGroups: groups, optionalContentConfigurations: configurations, layers: groups, layerConfigurations: configurations)
            if json {
                try JSONOutput.print(report)
            } else {
                printText(report, engine: "\(document.engineName) \(document.engineVersion)")
            }
        }
        try failures.finish()
    }

    /// Writes the settings through a session (its settings file and the PDF's permissions
    /// enforced), saves, and returns the path saved to.
    private func writeMetadata() throws -> String {
        guard let setMetadata = HostProgram.current.setMetadata else {
            throw RendererError(.unsupported, "this executable cannot write metadata; hostapp-full can")
        }
        try saving.edit(file, with: global) { session in
            var metadata = try session.info().metadata
            for setting in settings { setting.apply(to: &metadata) }
            try setMetadata(session, metadata)
        }
        return saving.output ?? file
    }

    /// Every page's size, rotation and label that the engine can load: all at once, and page
    /// by page when one fails on its own (``PageFailures/isPageLocal(_:)``), which is then
    /// handed to `failed` while the others are still read.
    static func pageInfos(of document: Document, failed: (Int, RendererError) -> Void) throws -> [PageInfo] {
        do {
            return try document.pageInfos()
        } catch let error as RendererError where PageFailures.isPageLocal(error) {
            var infos: [PageInfo] = []
            for index in 0..<document.pageCount {
                switch try PageFailures.catching({ try document.pageInfo(pageAt: index) }) {
                case .success(let info): infos.append(info)
                case .failure(let error): failed(index, error)
                }
            }
            return infos
        }
    }

    private func printText(_ report: Report, engine: String) {
        var rows: [(String, String?)] = [("File", report.file), ("Renderer", "\(report.renderer) (\(engine))")]
        if let info = report.info {
            rows += [
                ("Pages", String(info.pageCount)),
                info.contentType == .pdf ? ("PDF version", info.pdfVersion) : ("Format", info.contentType.rawValue),
                ("Title", info.title), ("Author", info.author), ("Subject", info.subject),
                ("Keywords", info.keywords), ("Creator", info.creator), ("Producer", info.producer),
                ("Created", info.creationDate?.formatted(.iso8601)),
                ("Modified", info.modificationDate?.formatted(.iso8601)),
            ]
            rows.append(("Encrypted", info.isEncrypted ? "yes" : "no"))
            let denied = DocumentPermissions.named.filter { !info.permissions.contains($0.permission) }.map(\.name)
            rows.append(("Permissions", denied.isEmpty ? "all" : "all but \(denied.joined(separator: ", "))"))
        } else {
            rows += [("Pages", String(report.pages.count + report.failedPages.count)), ("Metadata", "not read by this engine")]
        }
        if let groups = report.optionalContentGroups, !groups.isEmpty {
            let names = (report.optionalContentConfigurations ?? []).compactMap { configuration in configuration.name.map { "\"\($0)\"" } }
            rows.append(("Layers", "\(groups.count)" + (names.isEmpty ? "" : ", configurations " + names.joined(separator: ", "))))
        }
        for case let (name, value?) in rows {
            print("\(name + ":")".rightPadded(to: 14) + value)
        }
        for group in report.optionalContentGroups ?? [] {
            print(String(repeating: " ", count: 14) + (group.isVisibleByDefault ? "shown   " : "hidden  ") + group.name)
        }
        print("")
        print("Page  Size (pt)              Rotation  Label")
        var failed = report.failedPages[...]
        for page in report.pages {
            while let first = failed.first, first.number < page.number {
                print(String(first.number).leftPadded(to: 4) + "  (cannot be loaded)")
                failed.removeFirst()
            }
            let size = "\(Self.points(page.width)) x \(Self.points(page.height))"
            print(
                String(page.number).leftPadded(to: 4) + "  " + size.rightPadded(to: 21)
                    + "  " + String(page.rotation).leftPadded(to: 8) + "  " + page.label)
            if boxes, let pageBoxes = page.boxes {
                let named = [("MediaBox", pageBoxes.media), ("CropBox", pageBoxes.crop), ("BleedBox", pageBoxes.bleed), ("TrimBox", pageBoxes.trim), ("ArtBox", pageBoxes.art)]
                for (name, box) in named {
                    print("      " + name.rightPadded(to: 10) + [box.x0, box.y0, box.x1, box.y1].map(Self.points).joined(separator: " "))
                }
            }
        }
        for page in failed { print(String(page.number).leftPadded(to: 4) + "  (cannot be loaded)") }
    }

    /// A size in points with at most two decimals, as pdfinfo prints them.
    static func points(_ value: Double) -> String {
        value.decimalText(places: 2)
    }
}
