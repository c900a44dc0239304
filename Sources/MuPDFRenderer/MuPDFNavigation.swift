import CMuPDF
import EngineSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

extension MuPDFDocument {
    /// The outline MuPDF reads, with the colours and fonts of a PDF's items
    /// (``PDFObjectEditing/styled(_:)``).
    func outline() throws -> [OutlineItem] {
        final class Collector {
            var entries: [(depth: Int, title: String, isOpen: Bool, target: MuPDFDestination?)] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_outline(handle, Int32(OutlineItem.maximumDepth - 1), { user, depth, title, isOpen, destination in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            collector.entries.append((Int(depth), title.map { String(cString: $0) } ?? "", isOpen != 0, MuPDFDestination(destination)))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "read the outline", code: .damaged) }
        var spaces = MuPDFDestination.PageSpaces(document: self)
        let entries = collector.entries.map { entry in
            (entry.depth, OutlineItem(title: entry.title, destination: entry.target?.destination(in: &spaces), isOpen: entry.isOpen, children: []))
        }
        let items = MuPDFDestination.tree(fromPreorder: entries)
        return contentType == .pdf ? styled(items) : items
    }

    func namedDestination(_ name: String) throws -> Destination? {
        var found = cmupdf_destination()
        var error = cmupdf_error()
        guard cmupdf_named_destination(handle, name, &found, &error) != 0 else {
            throw MuPDFErrors.translate(error, doing: "find the named destination", code: .damaged)
        }
        var spaces = MuPDFDestination.PageSpaces(document: self)
        return MuPDFDestination(found)?.destination(in: &spaces)
    }
}

extension MuPDFPage {
    func links() throws -> [Link] {
        final class Collector {
            var links: [(area: PageRect, target: MuPDFDestination)] = []
        }
        let collector = Collector()
        var error = cmupdf_error()
        let ok = cmupdf_page_links(document.handle, handle, { user, x0, y0, x1, y1, destination in
            let collector = Unmanaged<Collector>.fromOpaque(user!).takeUnretainedValue()
            guard let target = MuPDFDestination(destination) else { return }
            collector.links.append((PageRect(x: Double(x0), y: Double(y0), width: Double(x1 - x0), height: Double(y1 - y0)), target))
        }, Unmanaged.passUnretained(collector).toOpaque(), &error)
        guard ok != 0 else { throw MuPDFErrors.translate(error, doing: "read the links of page \(index + 1)", code: .damaged) }
        var spaces = MuPDFDestination.PageSpaces(document: document)
        return collector.links.compactMap { link in link.target.destination(in: &spaces).map { Link(area: link.area, destination: $0) } }
    }
}

/// A target MuPDF resolved, kept past the callback that gave it, then made a `Destination`.
enum MuPDFDestination {
    case uri(String)
    /// A PDF's explicit destination, converted with the page's page space.
    case explicit(page: Int, ExplicitDestination)
    /// Another format's target, in page space already; `point` nil for a whole page.
    case resolved(page: Int, point: PagePoint?)

    /// `nil` when the target resolves to nothing.
    init?(_ destination: cmupdf_destination) {
        if let uri = destination.uri {
            self = .uri(String(cString: uri))
            return
        }
        guard destination.page >= 0 else { return nil }
        if destination.kind > 0, destination.kind <= Int32(DestinationView.Fit.allCases.count) {
            let fit = DestinationView.Fit.allCases[Int(destination.kind) - 1]
            let values = [destination.values.0, destination.values.1, destination.values.2, destination.values.3].map { $0.isNaN ? nil : Double($0) }
            self = .explicit(page: Int(destination.page), ExplicitDestination(fit: fit, values: values))
            return
        }
        let x = Double(destination.x), y = Double(destination.y)
        let point: PagePoint? = destination.fit != 0 || (x.isNaN && y.isNaN) ? nil : PagePoint(x: x.isNaN ? 0 : x, y: y.isNaN ? 0 : y)
        self = .resolved(page: Int(destination.page), point: point)
    }

    /// The destination; an explicit one on a page that cannot be measured keeps only its page.
    func destination(in spaces: inout PageSpaces) -> Destination? {
        switch self {
        case .uri(let uri): return .uri(uri)
        case .resolved(let page, let point): return .page(index: page, point: point)
        case .explicit(let page, let explicit):
            guard let space = spaces.space(ofPage: page) else { return .page(index: page, point: nil) }
            return explicit.destination(page: page, in: space)
        }
    }

    /// The page spaces of the pages destinations lead to, each page measured once.
    struct PageSpaces {
        let document: MuPDFDocument
        private var known: [Int: PageSpace] = [:]

        init(document: MuPDFDocument) {
            self.document = document
        }

        mutating func space(ofPage index: Int) -> PageSpace? {
            if let space = known[index] { return space }
            guard (0..<document.pageCount).contains(index), let page = try? document.loadPage(at: index) as? MuPDFPage,
                let space = try? page.pageSpace()
            else { return nil }
            known[index] = space
            return space
        }
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
