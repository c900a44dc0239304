extension Document {
    /// The sides, in pixels, of the icons icon themes use: 16 to 512.
    public static let iconSides = [16, 24, 32, 48, 64, 128, 256, 512]

    /// Page `index` (the first by default) as an icon: drawn to fit a square of `side`
    /// pixels, in RGBA, centred on transparency (a page on white, an image with its own
    /// transparency), as icon themes want their images.
    public func iconImage(side: Int, pageAt index: Int = 0) throws -> Bitmap {
        guard side >= 1 else { throw RendererError(.invalidArgument, "an icon is at least 1 pixel square") }
        var options = RenderOptions(pixelFormat: .rgba, background: contentType.mayBeTransparent ? .transparent : .white)
        options.fitting = PixelSize(width: side, height: side)
        let page = try render(pageAt: index, options: options)
        var bytes = [UInt8](repeating: 0, count: side * side * 4)
        let (left, top) = ((side - page.width) / 2, (side - page.height) / 2)
        let (width, height) = (min(page.width, side), min(page.height, side))
        for row in 0..<height {
            let from = row * page.stride
            let to = ((top + row) * side + left) * 4
            bytes.replaceSubrange(to..<to + width * 4, with: page.bytes[from..<from + width * 4])
        }
        return Bitmap(width: side, height: side, stride: side * 4, format: .rgba, bytes: bytes)
    }
}
