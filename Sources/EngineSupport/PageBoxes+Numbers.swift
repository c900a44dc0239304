import RendererProvider

extension PageBoxes {
    /// The boxes from the 20 numbers both engines' C layers write: media, crop, bleed, trim
    /// and art, each as x0, y0, x1, y1 in user space.
    package init(userRects numbers: [Double]) {
        precondition(numbers.count == 20, "five boxes of four numbers")
        func box(_ i: Int) -> UserRect {
            UserRect(x0: numbers[4 * i], y0: numbers[4 * i + 1], x1: numbers[4 * i + 2], y1: numbers[4 * i + 3])
        }
        self.init(media: box(0), crop: box(1), bleed: box(2), trim: box(3), art: box(4))
    }
}
