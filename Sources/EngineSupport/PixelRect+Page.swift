import RendererEngine

extension PixelRect {
    /// Whether `area` lies wholly on the displayed page of `size` points drawn at `scale`
    /// pixels per point: for the engines that draw only inside the crop box, asked for a box
    /// that may reach past it.
    package static func area(_ area: PixelRect, liesOnPageOf size: PageSize, scale: Double) -> Bool {
        guard let page = PixelRect(covering: PageRect(x: 0, y: 0, width: size.width, height: size.height), scale: scale) else { return false }
        return area.x >= page.x && area.y >= page.y && area.x + area.width <= page.x + page.width && area.y + area.height <= page.y + page.height
    }
}
