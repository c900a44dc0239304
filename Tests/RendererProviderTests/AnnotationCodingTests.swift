import Foundation
import Testing

@testable import RendererProvider

@Suite("Annotation values and their coding")
struct AnnotationCodingTests {
    static let note = Annotation(
        id: "note-1", kind: .ink, pageIndex: 2, rect: PageRect(x: 10, y: 20, width: 30, height: 40),
        inkPaths: [[PagePoint(x: 1, y: 2), PagePoint(x: 3.5, y: 4)], [PagePoint(x: 5, y: 6)]],
        color: Color(red: 1, green: 0.5, blue: 0), opacity: 0.5, borderWidth: 2, contents: "ünï\ncode",
        author: "Ann", subject: "Subj", creationDate: Date(timeIntervalSince1970: 1_700_000_000),
        modificationDate: Date(timeIntervalSince1970: 1_700_000_100), flags: [.print, .locked], iconName: nil)

    @Test func jsonRoundTripIsEqual() throws {
        let data = try Annotation.jsonData([Self.note])
        #expect(try Annotation.annotations(fromJSON: data) == [Self.note])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"creationDate\" : \"2023-11-14T22:13:20Z\""))
        #expect(text.contains("\"kind\" : \"Ink\""))
    }

    @Test func propertyListAndDictionaryRoundTripsAreEqual() throws {
        #expect(try Annotation.annotations(fromPropertyList: Annotation.propertyListData([Self.note])) == [Self.note])
        let dictionary = Self.note.dictionaryRepresentation
        #expect(dictionary["kind"] as? String == "Ink")
        #expect(dictionary["creationDate"] as? Date == Self.note.creationDate)
        #expect(try Annotation(dictionaryRepresentation: dictionary) == Self.note)
    }

    /// A host that keeps the dictionary in user defaults gets it back through Foundation's
    /// property-list reader, its numbers as `NSNumber` (the note's color has a 1 and a 0):
    /// it still makes the same annotation.
    @Test func aDictionaryStoredAsAPropertyListMakesTheSameAnnotation() throws {
        let stored = try PropertyListSerialization.data(fromPropertyList: Self.note.dictionaryRepresentation, format: .binary, options: 0)
        let read = try #require(try PropertyListSerialization.propertyList(from: stored, format: nil) as? [String: Any])
        #expect(try Annotation(dictionaryRepresentation: read) == Self.note)
    }

    @Test func minimalJSONTakesDefaults() throws {
        let json = #"[{"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 1, "y": 2}, "size": {"width": 3, "height": 4}}}]"#
        let decoded = try Annotation.annotations(fromJSON: Data(json.utf8))
        #expect(decoded == [Annotation(kind: .square, pageIndex: 0, rect: PageRect(x: 1, y: 2, width: 3, height: 4))])
        #expect(decoded.first?.flags == .print)
    }

    /// Dates are read as RFC 3339 writes them (what the OpenAPI document's `date-time` allows):
    /// any offset up to ±23:59, fractional seconds, `Z` in either case; anything else is refused.
    @Test func datesAreReadAsRFC3339WritesThem() throws {
        func created(_ text: String) throws -> Date? {
            let json = #"[{"kind": "Square", "pageIndex": 0, "rect": {"origin": {"x": 1, "y": 2}, "size": {"width": 3, "height": 4}}, "creationDate": "\#(text)"}]"#
            return try Annotation.annotations(fromJSON: Data(json.utf8)).first?.creationDate
        }
        let noon = Date(timeIntervalSince1970: 1_796_558_400)  // 2026-12-06T12:00:00Z
        #expect(try created("2026-12-06T12:00:00Z") == noon)
        #expect(try created("2026-12-06T12:00:00z") == noon)
        #expect(try created("2026-12-06T13:30:00+01:30") == noon)
        #expect(try created("2026-12-07T11:28:00+23:28") == noon)
        #expect(try created("2026-12-05T12:01:00-23:59") == noon)
        #expect(try created("2026-12-06T12:00:00.25Z") == noon.addingTimeInterval(0.25))
        for bad in ["2026-12-06T12:00:00", "2026-12-06T12:00:00+24:00", "2026-12-06T12:00:00+01:60", "2026-12-06", "noon", "2026-12-06T12:00:00+0100"] {
            #expect(throws: RendererError.self, "\(bad)") { try created(bad) }
        }
    }

    /// Validation asks of each creatable kind what its traits say (``AnnotationKindTraits``):
    /// its geometry, and an icon, an interior colour, a border and a text style exactly where
    /// the kind has them.
    @Test func eachKindIsCheckedAsItsTraitsSay() throws {
        let corner = PagePoint(x: 10, y: 10)
        #expect(AnnotationKind.creatable.map(\.rawValue) == [
            "Text", "FreeText", "Line", "Square", "Circle", "Polygon", "PolyLine", "Highlight", "Underline", "Squiggly", "StrikeOut", "Stamp", "Ink",
        ])
        for kind in AnnotationKind.creatable {
            let traits = kind.traits
            var plain = Annotation(kind: kind, pageIndex: 0, rect: PageRect(x: 10, y: 10, width: 20, height: 20))
            switch traits.geometry {
            case .rect: break
            case .quads: plain.quads = [Quad(upperLeft: corner, upperRight: PagePoint(x: 30, y: 10), lowerLeft: PagePoint(x: 10, y: 20), lowerRight: PagePoint(x: 30, y: 20))]
            case .inkPaths: plain.inkPaths = [[corner]]
            case .line: plain.points = [corner, PagePoint(x: 30, y: 30)]
            case .vertices(let minimum): plain.points = (0..<minimum).map { PagePoint(x: 10 + Double($0) * 5, y: 10 + Double($0 % 2) * 5) }
            }
            #expect(throws: Never.self, "\(kind)") { try AnnotationValidation.check(plain) }
            var short = plain
            (short.quads, short.inkPaths, short.points) = ([], [], Array(plain.points.dropLast()))
            if traits.geometry == .rect { short.rect = PageRect(x: 10, y: 10, width: 0, height: 20) }
            #expect(throws: RendererError.self, "\(kind) without its geometry") { try AnnotationValidation.check(short) }
            let fields: [(Bool, (inout Annotation) -> Void)] = [
                (traits.hasIcon, { $0.iconName = "Note" }), (traits.hasInteriorColor, { $0.interiorColor = Color(red: 1, green: 0, blue: 0) }),
                (traits.hasBorder, { $0.borderWidth = 2 }),
                (traits.hasTextStyle, { $0.textStyle = TextStyle(fontFamily: .helvetica, fontSize: 12, color: Color(red: 0, green: 0, blue: 0), alignment: .left) }),
            ]
            for (index, (has, set)) in fields.enumerated() {
                var annotation = plain
                set(&annotation)
                if has {
                    #expect(throws: Never.self, "\(kind), field \(index)") { try AnnotationValidation.check(annotation) }
                } else {
                    #expect(throws: RendererError.self, "\(kind), field \(index)") { try AnnotationValidation.check(annotation) }
                }
            }
        }
    }

    @Test func badInputSaysWhere() throws {
        let error = #expect(throws: RendererError.self) {
            try Annotation.annotations(fromJSON: Data(#"[{"kind": "Square", "pageIndex": "one"}]"#.utf8))
        }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("[0].pageIndex") == true)
    }

    @Test func hexColours() {
        #expect(Color(hex: "#FF8000") == Color(red: 1, green: 128.0 / 255, blue: 0))
        #expect(Color(hex: "00ff00")?.hexString == "#00FF00")
        #expect(Color(hex: "#12345") == nil && Color(hex: "#GG0000") == nil)
    }

    @Test func flagsInXFDF() {
        let flags: AnnotationFlags = [.print, .noRotate, .readOnly]
        #expect(flags.xfdfValue == "print,norotate,readonly")
        #expect(AnnotationFlags(xfdfValue: "ReadOnly, print,norotate") == flags)
        #expect(AnnotationFlags(xfdfValue: "print,sparkly") == nil)
    }

    @Test func pageSpaceRoundTripsOnEveryRotation() {
        for rotation in [PageRotation.none, .quarter, .half, .threeQuarters] {
            let space = PageSpace(cropBox: UserRect(x0: 10, y0: 20, x1: 310, y1: 420), rotation: rotation)
            let point = PagePoint(x: 12.5, y: 99)
            let user = space.userPoint(point)
            #expect(space.point(x: user.x, y: user.y) == point, "\(rotation)")
        }
    }

    @Test func validationNamesTheProblem() {
        let line = Annotation(kind: .line, pageIndex: 0, rect: PageRect(x: 0, y: 0, width: 1, height: 1), points: [PagePoint(x: 0, y: 0)])
        #expect(throws: RendererError.self) { try AnnotationValidation.check(line) }
        let highlight = Annotation(kind: .highlight, pageIndex: 0, rect: PageRect(x: 0, y: 0, width: 1, height: 1), opacity: 2)
        let error = #expect(throws: RendererError.self) { try AnnotationValidation.check(highlight) }
        #expect(error?.message.contains("opacity") == true)
    }
}
