import RendererEngine

/// A PDF destination as the file writes it (`[page /Kind numbers...]`), numbers in the
/// page's user space: what each engine reads, converted here, once, into page space.
package struct ExplicitDestination {
    package var fit: DestinationView.Fit
    /// The numbers after the kind, in order; nil where the file has `null` or nothing.
    package var values: [Double?]

    package init(fit: DestinationView.Fit, values: [Double?]) {
        self.fit = fit
        self.values = values
    }

    private func value(_ index: Int) -> Double? {
        index < values.count ? values[index] : nil
    }

    /// The destination on page `index`, whose page space is `space`.
    package func destination(page index: Int, in space: PageSpace) -> Destination {
        let view = self.view(in: space)
        return .page(index: index, point: view.point, view: view)
    }

    /// The view in page space: points through ``PageSpace/point(x:y:)``, FitR's rectangle
    /// through ``PageSpace/rect(_:)``, XYZ's zoom 0 or null as no zoom.
    package func view(in space: PageSpace) -> DestinationView {
        switch fit {
        case .xyz:
            let (left, top) = Self.convert(x: value(0), y: value(1), in: space)
            let zoom = value(2).flatMap { $0 > 0 ? $0 : nil }
            return DestinationView(fit: fit, left: left, top: top, zoom: zoom)
        case .fit, .fitB:
            return DestinationView(fit: fit)
        case .fitH, .fitBH:
            let (left, top) = Self.convert(x: nil, y: value(0), in: space)
            return DestinationView(fit: fit, left: left, top: top)
        case .fitV, .fitBV:
            let (left, top) = Self.convert(x: value(0), y: nil, in: space)
            return DestinationView(fit: fit, left: left, top: top)
        case .fitR:
            guard let x0 = value(0), let y0 = value(1), let x1 = value(2), let y1 = value(3) else { return DestinationView(fit: fit) }
            let rect = space.rect(UserRect(x0: min(x0, x1), y0: min(y0, y1), x1: max(x0, x1), y1: max(y0, y1)))
            return DestinationView(fit: fit, left: rect.minX, top: rect.minY, rect: rect)
        }
    }

    /// The page-space left and top for user-space `x` and `y`, either of which may be open:
    /// a page-space coordinate is nil when the user-space one it comes from is (on a page
    /// turned a quarter, page-space x comes from user-space y and y from x).
    private static func convert(x: Double?, y: Double?, in space: PageSpace) -> (left: Double?, top: Double?) {
        let point = space.point(x: x ?? space.cropBox.x0, y: y ?? space.cropBox.y1)
        switch space.rotation {
        case .none, .half: return (x == nil ? nil : point.x, y == nil ? nil : point.y)
        case .quarter, .threeQuarters: return (y == nil ? nil : point.x, x == nil ? nil : point.y)
        }
    }
}

extension ExplicitDestination {
    /// The destination a file writes for `view` on a page whose page space is `space`: the
    /// inverse of ``view(in:)``, an edge the view leaves open written as `null`.
    package init(view: DestinationView, in space: PageSpace) {
        let user = space.userPoint(PagePoint(x: view.left ?? 0, y: view.top ?? 0))
        let turned = space.rotation == .quarter || space.rotation == .threeQuarters
        // On a page turned a quarter, user-space x comes from page-space y and y from x.
        let x = (turned ? view.top : view.left) == nil ? nil : user.x
        let y = (turned ? view.left : view.top) == nil ? nil : user.y
        switch view.fit {
        case .xyz:
            self.init(fit: .xyz, values: [x, y, view.zoom])
        case .fit, .fitB:
            self.init(fit: view.fit, values: [])
        case .fitH, .fitBH:
            self.init(fit: view.fit, values: [y])
        case .fitV, .fitBV:
            self.init(fit: view.fit, values: [x])
        case .fitR:
            guard let rect = view.rect else {
                self.init(fit: .fit, values: [])
                return
            }
            let user = space.userRect(rect)
            self.init(fit: .fitR, values: [user.x0, user.y0, user.x1, user.y1])
        }
    }
}
