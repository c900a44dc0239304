import RendererEngine

extension PDFObjectEditing {
    /// Adds a link annotation on page `index` over `link`'s area, without a border, leading
    /// to its destination (`/Dest` for a page, a URI action for a URI).
    package func addLink(_ link: Link, pageAt index: Int) throws {
        let space = try loadPage(at: index).pageSpace()
        let rect = space.userRect(link.area)
        let target = try target(link.destination)
        let annotation = try addObject(.dictionary([
            "Type": .name("Annot"), "Subtype": .name("Link"),
            "Rect": .array([rect.x0, rect.y0, rect.x1, rect.y1].map(PDFObject.number)),
            "Border": .array([.integer(0), .integer(0), .integer(0)]),
            "P": .reference(try pageReference(at: index)),
            target.key: target.value,
        ]))
        try appendAnnotation(annotation, toPage: index)
    }

    /// Removes the link annotations of page `index` whose rectangle is `area` (each edge
    /// within half a point) and returns how many there were.
    package func removeLinks(in area: PageRect, pageAt index: Int) throws -> Int {
        let space = try loadPage(at: index).pageSpace()
        let page = try object(try pageReference(at: index).number)
        var removed = 0
        for case .reference(let reference) in try resolved(page["Annots"]).items {
            let annotation = try object(reference.number)
            guard annotation["Subtype"] == .name("Link") else { continue }
            let numbers = try resolved(annotation["Rect"]).items.compactMap(\.number)
            guard numbers.count == 4 else { continue }
            let rect = space.rect(UserRect(x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]), x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3])))
            let edges = [(rect.minX, area.minX), (rect.minY, area.minY), (rect.maxX, area.maxX), (rect.maxY, area.maxY)]
            guard edges.allSatisfy({ abs($0.0 - $0.1) <= 0.5 }) else { continue }
            try removeAnnotation(reference, fromPage: index)
            removed += 1
        }
        return removed
    }
}
