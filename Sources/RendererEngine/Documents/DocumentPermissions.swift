/// What an encrypted document allows the person who opened it to do, after the PDF's
/// `/P` entry. A document opened with its owner password, or not encrypted, allows all.
public struct DocumentPermissions: OptionSet, Hashable, Sendable, Codable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Printing.
    public static let print = DocumentPermissions(rawValue: 1 << 0)
    /// Changing the document's contents.
    public static let modify = DocumentPermissions(rawValue: 1 << 1)
    /// Copying text and graphics out of the document.
    public static let copy = DocumentPermissions(rawValue: 1 << 2)
    /// Adding and changing annotations (and filling forms).
    public static let annotate = DocumentPermissions(rawValue: 1 << 3)
    /// Filling form fields.
    public static let fillForms = DocumentPermissions(rawValue: 1 << 4)
    /// Extracting text and graphics for accessibility.
    public static let extractForAccessibility = DocumentPermissions(rawValue: 1 << 5)
    /// Inserting, rotating and deleting pages, and making bookmarks and thumbnails.
    public static let assemble = DocumentPermissions(rawValue: 1 << 6)
    /// Printing at full quality (without it, only a low-resolution print).
    public static let printHighResolution = DocumentPermissions(rawValue: 1 << 7)

    /// Every permission.
    public static let all: DocumentPermissions = [
        .print, .modify, .copy, .annotate, .fillForms, .extractForAccessibility, .assemble,
        .printHighResolution,
    ]

    /// Each permission with a short stable name, in declaration order, for display and JSON.
    public static let named: [(name: String, permission: DocumentPermissions)] = [
        ("print", .print), ("modify", .modify), ("copy", .copy), ("annotate", .annotate),
        ("fill-forms", .fillForms), ("extract-for-accessibility", .extractForAccessibility),
        ("assemble", .assemble), ("print-high-resolution", .printHighResolution),
    ]

    /// The permissions `names` name, as ``named`` spells them; `invalidArgument` naming the
    /// first unknown one.
    public init(names: some Sequence<String>) throws {
        self = []
        for name in names {
            guard let permission = Self.named.first(where: { $0.name == name })?.permission else {
                throw RendererError(.invalidArgument, "unknown permission \(name); the permissions are \(Self.named.map(\.name).joined(separator: ", "))")
            }
            insert(permission)
        }
    }

    /// The names of the permissions this value grants, in ``named`` order.
    public var names: [String] {
        Self.named.filter { contains($0.permission) }.map(\.name)
    }

    /// Reads the permission bits of a PDF `/P` value (ISO 32000-1, table 22): bit 3 print,
    /// 4 modify, 5 copy, 6 annotate, 9 fill forms, 10 extract for accessibility, 11 assemble,
    /// 12 print at high resolution.
    public init(pdfPermissionBits p: Int32) {
        self = DocumentPermissions(Self.bits.filter { p & (1 << ($0.bit - 1)) != 0 }.map(\.permission))
    }

    /// The `/P` value that grants these permissions and no other: the bits above, with the
    /// bits the standard reserves (7, 8 and 13 to 32) set as it asks.
    public var pdfPermissionBits: Int32 {
        let reserved = Int32(bitPattern: 0xFFFF_F0C0)
        return Self.bits.filter { contains($0.permission) }.reduce(reserved) { $0 | Int32(1) << ($1.bit - 1) }
    }

    /// Each permission's bit in `/P`, counted from 1 as the standard counts them.
    private static let bits: [(bit: Int32, permission: DocumentPermissions)] = [
        (3, .print), (4, .modify), (5, .copy), (6, .annotate), (9, .fillForms),
        (10, .extractForAccessibility), (11, .assemble), (12, .printHighResolution),
    ]
}
