#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RendererEngine

/// The images a document's pages draw, read over the PDF-object primitives for every engine:
/// what `pdfimages -list` lists (``DocumentImage``), and each image's data for extraction.
extension PDFObjectReading {
    /// The images pages `pages` draw, page after page, in the order their content draws them
    /// (numbered from 0): the page's content streams, the forms they draw and the soft-mask
    /// groups they set, then the appearance each shown annotation has. Throws `limitExceeded`
    /// past ``ImageLister/imageLimit`` entries.
    package func listImages(pages: some Sequence<Int>) throws -> [DocumentImage] {
        var lister = ImageLister(objects: self)
        for index in pages { try lister.list(pageAt: index, page: try pageReference(at: index)) }
        return lister.images
    }

    /// `image`'s data (as ``listImages(pages:)`` lists it): a JPEG (but CMYK) or
    /// JPEG 2000 stream's bytes as stored, or the samples made 8-bit gray or RGB
    /// (``ImageSamples``). An inline image is found again on its page; its samples are read
    /// when they are stored unfiltered.
    package func imageContents(of image: DocumentImage) throws -> ImageContents {
        typealias Lister = ImageLister<Self>
        let dictionary: [String: PDFObject]
        let stored: Data
        if let object = image.object {
            guard case .dictionary(let entries) = try self.object(object.number),
                let bytes = try streamContents(object.number, limit: Lister.streamLimit, decoded: false)
            else { throw RendererError(.damaged, "image object \(object.number) is no stream, or one too long to read") }
            (dictionary, stored) = (entries, bytes)
        } else {
            var lister = Lister(objects: self)
            guard let place = image.inlineIndex,
                let found = try lister.inlineImage(place, pageAt: image.pageIndex, page: try pageReference(at: image.pageIndex))
            else { throw RendererError(.invalidArgument, "page \(image.pageIndex + 1) draws no such inline image") }
            (dictionary, stored) = found
        }
        let description = try Lister(objects: self).describe(dictionary, role: image.role, resources: [:])
        if description.encoding == .jpeg2000 || (description.encoding == .jpeg && description.colorSpace != "cmyk") {
            return ImageContents(format: description.encoding == .jpeg ? .jpeg : .jpeg2000, width: 0, height: 0, data: stored)
        }
        let samples: Data
        if Lister.filters(of: dictionary).isEmpty {
            samples = stored
        } else if let object = image.object, let decoded = try streamContents(object.number, limit: Lister.streamLimit, decoded: true) {
            samples = decoded
        } else {
            throw RendererError(image.object == nil ? .unsupported : .damaged, "the image's data cannot be decoded")
        }
        return try ImageSamples(description: description, dictionary: dictionary, objects: self).contents(from: samples)
    }
}

/// Walks what pages draw and lists the images, as ``PDFObjectReading/listImages(pages:)`` promises.
package struct ImageLister<Objects: PDFObjectReading> {
    /// The most entries one listing holds: a content stream that draws one image a million
    /// times is a hostile file, not a list to print.
    package static var imageLimit: Int { 1_000_000 }
    /// The longest stream read (content streams, and image data for extraction).
    static var streamLimit: Int { 512 << 20 }
    /// The deepest nesting of forms drawn in forms.
    static var formDepthLimit: Int { 32 }

    let objects: Objects
    /// Whether what the pages draw with paths is listed (in ``rules`` and ``shapes``)
    /// instead of their images.
    let listsDrawing: Bool
    /// The number the next entry gets.
    private var next = 0
    private(set) var images: [DocumentImage] = []
    var rules: [PageRule] = []
    var shapes: [PageShape] = []
    /// The path being built, the line width it is stroked with, and the rules and shapes
    /// listed on the page so far, when the drawing is listed (PDFObjectReading+Drawing.swift).
    var path = PathTrace()
    var lineWidth = 1.0
    var pageRuleCount = 0
    var pageShapeCount = 0
    /// The page being read, its page space, and how many inline images it has drawn.
    private(set) var pageIndex = 0
    private(set) var space = PageSpace(cropBox: UserRect(x0: 0, y0: 0, x1: 612, y1: 792), rotation: .none)
    private var inlineCount = 0
    /// The deepest the graphics states saved with `q` are kept: more is a hostile stream.
    private static var savedStateLimit: Int { 4096 }
    /// The forms being drawn, so that a form that draws itself ends.
    private var open: Set<Int> = []
    /// When looking for one inline image: its place on the page, and what was found.
    private var wanted: Int?
    private var found: (dictionary: [String: PDFObject], data: Data)?

    init(objects: Objects, listsDrawing: Bool = false) {
        self.objects = objects
        self.listsDrawing = listsDrawing
    }

    /// Lists what page `index` (object `page`) draws.
    mutating func list(pageAt index: Int, page reference: PDFReference) throws {
        (pageIndex, inlineCount, open) = (index, 0, [])
        (path, lineWidth, pageRuleCount, pageShapeCount) = (PathTrace(), 1, 0, 0)
        let page = try objects.object(reference.number)
        space = try pageSpace(of: page)
        let resources = try dictionary(try objects.inherited("Resources", of: page))
        var content = Data()
        for stream in try objects.contentStreams(of: page) {
            guard case .reference(let reference) = stream,
                let data = try objects.streamContents(reference.number, limit: Self.streamLimit, decoded: true)
            else { continue }
            content.append(data)
            content.append(UInt8(ascii: "\n"))  // an operator is never split across two streams
        }
        try scan(content, resources: resources, depth: 0, transform: Transform())
        // What annotations draw is no part of the page's own drawing.
        guard !listsDrawing else { return }
        for annotation in try objects.resolved(page["Annots"]).items {
            if let appearance = try objects.viewedAppearance(of: try objects.resolved(annotation)) {
                try drawForm(appearance, resources: [:], depth: 0, transform: nil)
            }
        }
    }

    /// The page space of `page`: its crop box (within its media box) and its rotation, as
    /// the page tree gives them.
    private func pageSpace(of page: PDFObject) throws -> PageSpace {
        func rect(_ key: String) throws -> UserRect? {
            let numbers = try objects.resolved(try objects.inherited(key, of: page)).items.compactMap { try objects.resolved($0).number }
            guard numbers.count == 4 else { return nil }
            return UserRect(x0: min(numbers[0], numbers[2]), y0: min(numbers[1], numbers[3]), x1: max(numbers[0], numbers[2]), y1: max(numbers[1], numbers[3]))
        }
        let media = try rect("MediaBox") ?? UserRect(x0: 0, y0: 0, x1: 612, y1: 792)
        var crop = try rect("CropBox") ?? media
        crop = UserRect(x0: max(crop.x0, media.x0), y0: max(crop.y0, media.y0), x1: min(crop.x1, media.x1), y1: min(crop.y1, media.y1))
        if crop.x1 <= crop.x0 || crop.y1 <= crop.y0 { crop = media }
        // A hostile /Rotate of 1e300 is no rotation (and no Int).
        let degrees = try objects.resolved(try objects.inherited("Rotate", of: page)).number.flatMap { abs($0) < 1e6 ? Int($0) : nil } ?? 0
        return PageSpace(cropBox: crop, rotation: PageRotation(degrees: degrees) ?? .none)
    }

    /// The inline image `place` (from 0) among those page `index` draws.
    mutating func inlineImage(_ place: Int, pageAt index: Int, page: PDFReference) throws -> (dictionary: [String: PDFObject], data: Data)? {
        wanted = place
        try list(pageAt: index, page: page)
        return found
    }

    private func dictionary(_ object: PDFObject?) throws -> [String: PDFObject] {
        if case .dictionary(let entries) = try objects.resolved(object) { return entries }
        return [:]
    }

    /// Reads `content`, drawn with `resources` under `transform` (the current transformation
    /// matrix; nil for content whose images are not placed).
    private mutating func scan(_ content: Data, resources: [String: PDFObject], depth: Int, transform: Transform?) throws {
        var scanner = ContentStreamScanner(content)
        var current = transform
        var saved: [(transform: Transform?, lineWidth: Double)] = []
        while let operation = scanner.next() {
            switch operation.name {
            case "q":
                if saved.count < Self.savedStateLimit { saved.append((current, lineWidth)) }
            case "Q":
                if let restored = saved.popLast() { (current, lineWidth) = restored }
            case "cm":
                if let matrix = Transform(operation.operands.suffix(6).compactMap(\.number)) { current = current.map(matrix.then) }
            case "Do":
                guard case .name(let name)? = operation.operands.last,
                    case .reference(let reference)? = try dictionary(resources["XObject"])[name]
                else { continue }
                let xobject = try dictionary(.reference(reference))
                switch try objects.resolved(xobject["Subtype"]) {
                case .name("Image"): try add(xobject, object: reference, resources: resources, transform: current)
                case .name("Form"): try drawForm(reference, resources: resources, depth: depth + 1, transform: current)
                default: break
                }
            case "gs":
                // A soft mask set by a graphics state is drawn then, as its group's form.
                guard case .name(let name)? = operation.operands.last else { continue }
                let state = try dictionary(try dictionary(resources["ExtGState"])[name])
                if case .reference(let group)? = try dictionary(state["SMask"])["G"] {
                    try drawForm(group, resources: resources, depth: depth + 1, transform: nil)
                }
            case "BI":
                if wanted == inlineCount { found = (operation.inlineDictionary, operation.inlineData) }
                try add(operation.inlineDictionary, object: nil, resources: resources, transform: current)
                inlineCount += 1
            case "w":
                if let width = operation.operands.last?.number, width.isFinite, width >= 0 { lineWidth = width }
            default:
                if listsDrawing, let current { trace(operation, transform: current) }
            }
        }
    }

    /// Draws the form `reference` names (with `resources` when it has none of its own) under
    /// `transform`, to which its `/Matrix` is applied first.
    private mutating func drawForm(_ reference: PDFReference, resources: [String: PDFObject], depth: Int, transform: Transform?) throws {
        guard depth <= Self.formDepthLimit, open.insert(reference.number).inserted else { return }
        defer { open.remove(reference.number) }
        let form = try objects.object(reference.number)
        guard let content = try objects.streamContents(reference.number, limit: Self.streamLimit, decoded: true) else { return }
        let own = try dictionary(form["Resources"])
        let matrix = Transform(try objects.resolved(form["Matrix"]).items.compactMap { try objects.resolved($0).number }) ?? Transform()
        try scan(content, resources: form["Resources"] == nil ? resources : own, depth: depth, transform: transform.map(matrix.then))
    }

    /// Adds the image `dictionary` (object `reference`, or inline), drawn under `transform`,
    /// and the mask it is drawn through.
    private mutating func add(_ dictionary: [String: PDFObject], object reference: PDFReference?, resources: [String: PDFObject], transform: Transform?) throws {
        guard !listsDrawing else { return }
        let isStencil = try objects.resolved(dictionary["ImageMask"] ?? dictionary["IM"]) == .bool(true)
        // A transformation that overflows places nothing.
        let bounds = transform.map { space.rect($0.unitSquareBounds) }
            .flatMap { [$0.minX, $0.minY, $0.maxX, $0.maxY].allSatisfy(\.isFinite) ? $0 : nil }
        try append(try describe(dictionary, role: isStencil ? .stencil : .image, resources: resources), object: reference, bounds: bounds)
        guard !isStencil else { return }
        if case .reference(let mask)? = dictionary["SMask"], case .dictionary(let entries) = try objects.object(mask.number) {
            try append(try describe(entries, role: .smask, resources: [:]), object: mask, bounds: bounds)
        } else if case .reference(let mask)? = dictionary["Mask"], case .dictionary(let entries) = try objects.object(mask.number) {
            try append(try describe(entries, role: .mask, resources: [:]), object: mask, bounds: bounds)
        }
    }

    private mutating func append(_ description: Description, object reference: PDFReference?, bounds: PageRect?) throws {
        guard images.count < Self.imageLimit else {
            throw RendererError(.limitExceeded, "the pages draw more than \(Self.imageLimit) images")
        }
        images.append(
            DocumentImage(
                pageIndex: pageIndex, number: next, role: description.role, width: description.width, height: description.height,
                colorSpace: description.colorSpace, components: description.components, bitsPerComponent: description.bitsPerComponent,
                encoding: description.encoding, interpolates: description.interpolates,
                object: reference.map { DocumentImage.ObjectNumber(number: $0.number, generation: $0.generation) },
                inlineIndex: reference == nil ? inlineCount : nil, bounds: bounds))
        next += 1
    }

    /// What an image dictionary (an XObject's or an inline image's, whose keys may be
    /// abbreviated) says of its image.
    struct Description {
        var role: DocumentImage.Role
        var width: Int
        var height: Int
        var colorSpace: String
        var components: Int
        var bitsPerComponent: Int
        var encoding: DocumentImage.Encoding
        var interpolates: Bool
        /// The colour space itself, resolved: what extraction maps samples through.
        var space: PDFObject
        /// The `/Decode` array's numbers.
        var decode: [Double]
    }

    func describe(_ dictionary: [String: PDFObject], role: DocumentImage.Role, resources: [String: PDFObject]) throws -> Description {
        func value(_ key: String, _ short: String) throws -> PDFObject { try objects.resolved(dictionary[key] ?? dictionary[short]) }
        let width = try value("Width", "W").wholeNumber ?? 0
        let height = try value("Height", "H").wholeNumber ?? 0
        let filters = Self.filters(of: dictionary)
        let encoding: DocumentImage.Encoding =
            switch filters.last {
            case "DCTDecode", "DCT": .jpeg
            case "JPXDecode": .jpeg2000
            case "JBIG2Decode": .jbig2
            case "CCITTFaxDecode", "CCF": .ccitt
            default: .image
            }
        let decode = try value("Decode", "D").items.compactMap(\.number)
        let interpolates = try value("Interpolate", "I") == .bool(true)
        if try role == .stencil || value("ImageMask", "IM") == .bool(true) {
            return Description(
                role: role, width: width, height: height, colorSpace: "-", components: 1, bitsPerComponent: 1, encoding: encoding,
                interpolates: interpolates, space: .null, decode: decode)
        }
        var space = try value("ColorSpace", "CS")
        if case .name(let name) = space, let named = try self.dictionary(resources["ColorSpace"])[name] { space = try objects.resolved(named) }
        let (name, components) = try Self.name(of: space, objects: objects)
        let bits = try value("BitsPerComponent", "BPC").wholeNumber ?? (encoding == .jbig2 || encoding == .ccitt ? 1 : 8)
        return Description(
            role: role, width: width, height: height, colorSpace: name, components: components, bitsPerComponent: bits, encoding: encoding,
            interpolates: interpolates, space: space, decode: decode)
    }

    /// The filter names of a stream or inline image dictionary, in order.
    static func filters(of dictionary: [String: PDFObject]) -> [String] {
        switch dictionary["Filter"] ?? dictionary["F"] {
        case .name(let name)?: [name]
        case .array(let items)?: items.compactMap { if case .name(let name) = $0 { name } else { nil } }
        default: []
        }
    }

    /// A colour space's name as `pdfimages` prints it, and its components.
    static func name(of space: PDFObject, objects: Objects) throws -> (String, Int) {
        let family: String
        var parameters: [PDFObject] = []
        switch space {
        case .name(let name): family = name
        case .array(let items):
            guard case .name(let name)? = items.first else { return ("?", 0) }
            (family, parameters) = (name, Array(items.dropFirst()))
        default: return ("?", 0)
        }
        switch family {
        case "DeviceGray", "CalGray", "G": return ("gray", 1)
        case "DeviceRGB", "CalRGB", "RGB": return ("rgb", 3)
        case "DeviceCMYK", "CMYK": return ("cmyk", 4)
        case "Lab": return ("lab", 3)
        case "ICCBased":
            guard case .reference(let profile)? = parameters.first else { return ("icc", 0) }
            return ("icc", try objects.resolved(objects.object(profile.number)["N"]).wholeNumber ?? 0)
        case "Indexed", "I": return ("index", 1)
        case "Separation": return ("sep", 1)
        case "DeviceN": return ("devn", try objects.resolved(parameters.first).items.count)
        case "Pattern": return ("pattern", 0)
        default: return ("?", 0)
        }
    }
}

/// An affine transformation as PDF writes one (`a b c d e f`, ISO 32000-1, 8.3.3): a point
/// (x, y) goes to (a x + c y + e, b x + d y + f).
struct Transform {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    /// The identity.
    init() {}

    init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    /// The transformation of six finite numbers; nil for anything else.
    init?(_ numbers: [Double]) {
        guard numbers.count == 6, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
    }

    /// This transformation first, then `other`.
    func then(_ other: Transform) -> Transform {
        Transform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d, c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            e: e * other.a + f * other.c + other.e, f: e * other.b + f * other.d + other.f)
    }

    /// The bounds of the unit square (where an image is drawn) through it.
    var unitSquareBounds: UserRect {
        let xs = [e, a + e, c + e, a + c + e], ys = [f, b + f, d + f, b + d + f]
        return UserRect(x0: xs.min()!, y0: ys.min()!, x1: xs.max()!, y1: ys.max()!)
    }
}
