import RendererEngine

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

    /// The boxes a page dictionary gives (each corner pair in either order), with the PDF's
    /// rules applied: the crop box defaults to the media box, the bleed, trim and art boxes to
    /// the crop box, and each edge of every box is moved inside the media box.
    package init(media: UserRect, crop: UserRect?, bleed: UserRect?, trim: UserRect?, art: UserRect?) {
        func normalized(_ box: UserRect) -> UserRect {
            UserRect(x0: min(box.x0, box.x1), y0: min(box.y0, box.y1), x1: max(box.x0, box.x1), y1: max(box.y0, box.y1))
        }
        let media = normalized(media)
        func clamped(_ box: UserRect) -> UserRect {
            let box = normalized(box)
            func clamp(_ value: Double, _ low: Double, _ high: Double) -> Double { min(max(value, low), high) }
            return UserRect(
                x0: clamp(box.x0, media.x0, media.x1), y0: clamp(box.y0, media.y0, media.y1),
                x1: clamp(box.x1, media.x0, media.x1), y1: clamp(box.y1, media.y0, media.y1))
        }
        let crop = clamped(crop ?? media)
        self.init(
            media: media, crop: crop, bleed: clamped(bleed ?? crop), trim: clamped(trim ?? crop), art: clamped(art ?? crop))
    }
}
