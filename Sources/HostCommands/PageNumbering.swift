import ArgumentParser
import RendererProvider

/// How page numbers are shown: 1-based numbers, or the document's page labels (`--labels`).
package struct PageNumbering {
    private let labels: [Int: String]?

    /// Reads the labels with `useLabels`; a page that cannot be loaded keeps its number (the
    /// command then reports it when it reads the page).
    package init(document: Document, useLabels: Bool) throws {
        labels = useLabels
            ? Dictionary(uniqueKeysWithValues: try InfoCommand.pageInfos(of: document) { _, _ in }.map { ($0.index, $0.label) })
            : nil
    }

    /// The name of the page at 0-based `index`.
    package func name(_ index: Int) -> String {
        labels?[index] ?? String(index + 1)
    }

    /// A destination in words: "page 3 at 72,292", with FitR's rectangle ("fitting 66,22
    /// 114x56") or XYZ's zoom ("at 200%") when it has one; or the URI.
    package func describe(_ destination: Destination?) -> String {
        switch destination {
        case .page(let index, let point, let view)?:
            var place = point.map { " at \(Self.number($0.x)),\(Self.number($0.y))" } ?? ""
            if let rect = view?.rect {
                place += " fitting \(Self.number(rect.minX)),\(Self.number(rect.minY)) \(Self.number(rect.size.width))x\(Self.number(rect.size.height))"
            }
            if let zoom = view?.zoom { place += " at \(Self.number(zoom * 100))%" }
            return "page \(name(index))\(place)"
        case .uri(let uri)?:
            return uri
        case nil:
            return "(nowhere)"
        }
    }

    /// A rectangle as `x,y wxh` in points, rounded to two decimals.
    package static func describe(_ rect: PageRect) -> String {
        "\(number(rect.minX)),\(number(rect.minY)) \(number(rect.size.width))x\(number(rect.size.height))"
    }

    package static func number(_ value: Double) -> String { InfoCommand.points(value) }
}

/// Options shared by the commands that read pages: `--pages`, `--labels` and `--json`.
package struct PageOptions: ParsableArguments {
    package init() {}

    @Option(help: "Pages, 1-based, such as 1-3,7, 5- or 2-N, where N is the last page (default: all).")
    package var pages: String?

    @Flag(help: "Show page labels (such as iv or A-3) instead of page numbers.")
    package var labels = false

    @Flag(help: "Print JSON.")
    package var json = false

    /// The selected 0-based page indices; a bad selection is a usage error.
    package func indices(in document: Document) throws -> [Int] {
        try PageSelection(text: pages ?? "1-").indices(pageCount: document.pageCount)
    }
}
