import CPopplerGlib
import EngineSupport
import RendererEngine

extension PopplerDocument {
    /// The outline as the glib twin reads it (opened again after an edit), with the colours
    /// and fonts of its items (``PDFObjectEditing/styled(_:)``).
    func outline() throws -> [OutlineItem] {
        guard let iterator = try currentGlib().outlineIterator() else { return [] }
        defer { poppler_index_iter_free(iterator) }
        return styled(items(of: iterator, depth: 0))
    }

    /// The items at `iterator`'s level and, below the depth limit, their children. Poppler
    /// cuts cycles among siblings and back to ancestors itself; the depth limit ends any other.
    private func items(of iterator: OpaquePointer, depth: Int) -> [OutlineItem] {
        var level: [OutlineItem] = []
        repeat {
            let action = poppler_index_iter_get_action(iterator)
            defer { poppler_action_free(action) }
            let title = action.flatMap { $0.pointee.any.title }.map { String(cString: $0) } ?? ""
            var children: [OutlineItem] = []
            if depth + 1 < OutlineItem.maximumDepth, let child = poppler_index_iter_get_child(iterator) {
                children = items(of: child, depth: depth + 1)
                poppler_index_iter_free(child)
            }
            level.append(OutlineItem(
                title: title, destination: action.flatMap(destination(of:)),
                isOpen: poppler_index_iter_is_open(iterator) != 0, children: children))
        } while poppler_index_iter_next(iterator) != 0
        return level
    }

    /// Where an action leads, with named destinations resolved; `nil` for anything else.
    func destination(of action: UnsafeMutablePointer<PopplerAction>) -> Destination? {
        switch action.pointee.type {
        case POPPLER_ACTION_URI:
            return action.pointee.uri.uri.map { .uri(String(cString: $0)) }
        case POPPLER_ACTION_GOTO_DEST:
            return action.pointee.goto_dest.dest.flatMap(destination(of:))
        case POPPLER_ACTION_GOTO_REMOTE:
            // Another file, written as MuPDF writes it: file://NAME#DESTINATION or #page=N.
            guard let file = action.pointee.goto_remote.file_name else { return nil }
            var uri = "file://" + String(cString: file)
            if let dest = action.pointee.goto_remote.dest?.pointee {
                if dest.type == POPPLER_DEST_NAMED, let name = dest.named_dest {
                    uri += "#" + String(cString: name)
                } else if dest.page_num > 0 {
                    uri += "#page=\(dest.page_num)"
                }
            }
            return .uri(uri)
        default:
            return nil
        }
    }

    func namedDestination(_ name: String) throws -> Destination? {
        guard let dest = name.withCString({ glib.destination(named: $0) }) else { return nil }
        defer { poppler_dest_free(dest) }
        return destination(of: dest)
    }

    private func destination(of dest: UnsafeMutablePointer<PopplerDest>) -> Destination? {
        var target = dest
        var found: UnsafeMutablePointer<PopplerDest>?
        if dest.pointee.type == POPPLER_DEST_NAMED {
            guard let name = dest.pointee.named_dest, let resolved = glib.destination(named: name) else { return nil }
            found = resolved
            target = resolved
        }
        defer { if let found { poppler_dest_free(found) } }
        let index = Int(target.pointee.page_num) - 1
        guard (0..<pageCount).contains(index) else { return nil }
        guard let space = pageSpace(ofPage: index), let explicit = Self.explicitDestination(target.pointee, cropBox: space.cropBox) else {
            return .page(index: index, point: nil)
        }
        return explicit.destination(page: index, in: space)
    }

    /// The destination as the file writes it, in user space. poppler-glib hands its numbers
    /// over less a corner of the crop box: left and bottom less the lower-left x, right and
    /// top less the lower-left y (poppler-action.cc, dest_new_goto); that is undone here. A
    /// number the file leaves null is nil.
    private static func explicitDestination(_ d: PopplerDest, cropBox: UserRect) -> ExplicitDestination? {
        let left = d.change_left != 0 ? d.left + cropBox.x0 : nil
        let top = d.change_top != 0 ? d.top + cropBox.y0 : nil
        switch d.type {
        case POPPLER_DEST_XYZ: return ExplicitDestination(fit: .xyz, values: [left, top, d.change_zoom != 0 ? d.zoom : nil])
        case POPPLER_DEST_FIT: return ExplicitDestination(fit: .fit, values: [])
        case POPPLER_DEST_FITB: return ExplicitDestination(fit: .fitB, values: [])
        case POPPLER_DEST_FITH: return ExplicitDestination(fit: .fitH, values: [top])
        case POPPLER_DEST_FITBH: return ExplicitDestination(fit: .fitBH, values: [top])
        case POPPLER_DEST_FITV: return ExplicitDestination(fit: .fitV, values: [left])
        case POPPLER_DEST_FITBV: return ExplicitDestination(fit: .fitBV, values: [left])
        case POPPLER_DEST_FITR:
            return ExplicitDestination(
                fit: .fitR, values: [d.left + cropBox.x0, d.bottom + cropBox.x0, d.right + cropBox.y0, d.top + cropBox.y0])
        default: return nil
        }
    }

    /// How user space maps onto page space on page `index`.
    func pageSpace(ofPage index: Int) -> PageSpace? {
        glib.cropBox(ofPage: index).map { PageSpace(cropBox: $0, rotation: core.rotation(ofPage: index)) }
    }
}

extension PopplerPage {
    /// Poppler gives link areas relative to the crop box, turned with the page, but y up.
    func links() throws -> [Link] {
        let page = try handle
        let list = poppler_page_get_link_mapping(page)
        defer { poppler_page_free_link_mapping(list) }
        var height = 0.0, width = 0.0
        poppler_page_get_size(page, &width, &height)
        var links: [Link] = []
        var node = list
        while let current = node {
            let mapping = current.pointee.data.assumingMemoryBound(to: PopplerLinkMapping.self).pointee
            if let action = mapping.action, let destination = document.destination(of: action) {
                let a = mapping.area
                let area = PageRect(x: min(a.x1, a.x2), y: height - max(a.y1, a.y2), width: abs(a.x2 - a.x1), height: abs(a.y2 - a.y1))
                links.append(Link(area: area, destination: destination))
            }
            node = current.pointee.next
        }
        return links.reversed()
    }
}
