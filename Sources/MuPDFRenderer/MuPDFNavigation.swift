import CMuPDF
import Foundation
import RendererProvider

extension MuPDFDocument {
    func outline() throws -> [OutlineItem] {
        final class Collector {
            var entries: [(depth: Int, item: OutlineItem)] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_outline(handle, Int32(OutlineItem.maximumDepth - 1), { user, depth, title, isOpen, destination in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            let item = OutlineItem(
                title: title.map { String(cString: $0) } ?? "", destination: MuPDFDestination.make(destination),
                isOpen: isOpen != 0, children: [])
            collector.entries.append((Int(depth), item))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "read the outline", code: .damaged) }
        return MuPDFDestination.tree(fromPreorder: collector.entries)
    }
}

extension MuPDFPage {
    func links() throws -> [Link] {
        final class Collector {
            var links: [Link] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_page_links(document.handle, handle, { user, x0, y0, x1, y1, destination in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            guard let target = MuPDFDestination.make(destination) else { return }
            let area = PageRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0))
            collector.links.append(Link(area: area, destination: target))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "read the links of page \(index + 1)", code: .damaged) }
        return collector.links
    }
}

/// Turns MuPDF's resolved targets into `Destination`s.
enum MuPDFDestination {
    /// `nil` when the target resolves to nothing.
    static func make(_ destination: cmupdf_destination) -> Destination? {
        if let uri = destination.uri { return .uri(String(cString: uri)) }
        guard destination.page >= 0 else { return nil }
        let x = Double(destination.x), y = Double(destination.y)
        let point: PagePoint? = destination.fit != 0 || (x.isNaN && y.isNaN)
            ? nil : PagePoint(x: x.isNaN ? 0 : x, y: y.isNaN ? 0 : y)
        return .page(index: Int(destination.page), point: point)
    }

    /// Rebuilds the tree from entries listed depth first with their depths.
    static func tree(fromPreorder entries: [(depth: Int, item: OutlineItem)]) -> [OutlineItem] {
        var position = 0
        func level(_ depth: Int) -> [OutlineItem] {
            var items: [OutlineItem] = []
            while position < entries.count, entries[position].depth == depth {
                var item = entries[position].item
                position += 1
                item.children = level(depth + 1)
                items.append(item)
            }
            return items
        }
        return level(0)
    }
}
