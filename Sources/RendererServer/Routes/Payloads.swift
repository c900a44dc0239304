import Foundation
import RendererProvider
import RendererServerHTTP
import RendererSignatures

/// The JSON the API answers with, beyond the API's own Codable types (annotations,
/// bookmarks, outline items, links, page infos, viewing states), which it uses as they are.
enum Payload {
    /// `GET /api/documents/{id}/optional-content`: the groups, and under `layers`, their
    /// former name, the same list for this release.
    struct OptionalContent: Codable {
        var groups: [OptionalContentGroup] = []
        var configurations: [OptionalContentConfiguration] = []
        var layers: [OptionalContentGroup] = []

        init(groups: [OptionalContentGroup] = [], configurations: [OptionalContentConfiguration] = []) {
            self.groups = groups
            self.configurations = configurations
            self.layers = groups
        }
    }

    /// `GET /api/documents/{id}`: the document's facts through its default engine, with
    /// its first page (the rest come from `/pages`) and the version its ETags are built on.
    struct DocumentDetails: Codable {
        var id: String
        var renderer: String
        var renderers: [String]
        var version: String
        var info: DocumentInfo
        var firstPage: PageInfo?
        var editable: Bool
        /// The file's size in bytes, as the server holds it now.
        var fileSize: Int
        /// What the reader may do with it, by the server's settings and the PDF's permissions.
        var allows: Allowed
    }

    /// What a reader may do with a document: print it (print images), download it, copy its
    /// text and images out of it, fill its form, sign it (with the server's signing identity),
    /// show it full screen (presentation) and draw it for a dark screen.
    struct Allowed: Codable {
        var printing: Bool
        var download: Bool
        var copying: Bool
        var formFilling: Bool
        var signing: Bool
        var fullScreen: Bool
        var darkMode: Bool
    }

    /// `GET .../pages/{page}/text`: the words of a page, by line.
    struct TextLayer: Codable {
        var pageIndex: Int
        var renderer: String
        var size: PageSize
        var lines: [Line]
    }

    /// One line of a ``TextLayer``.
    struct Line: Codable {
        var bounds: PageRect
        var words: [Word]
    }

    /// One word of a ``Line``.
    struct Word: Codable {
        var text: String
        var bounds: PageRect
    }

    /// One line of the search stream: a hit, or the last line saying the search is done.
    struct SearchLine: Codable {
        var pageIndex: Int?
        var quads: [Quad]?
        var done: Bool?
        var pagesSearched: Int?
        var hits: Int?
    }

    /// `GET .../pages/{page}/compare`: one page through two engines.
    struct Comparison: Codable {
        var pageIndex: Int
        var reference: String
        var candidate: String
        var dpi: Double
        var page: PageComparisonFigures
        var heatMap: String
    }

    /// The figures ``Comparison`` reports.
    struct PageComparisonFigures: Codable {
        var passed: Bool
        var failures: [String]
        var differingShare: Double?
        var psnr: Double?
        var textAgreement: Double?
    }

    /// `POST .../bookmarks`.
    struct NewBookmark: Codable {
        var pageIndex: Int
        var title: String
    }

    /// `POST .../annotations.xfdf`: what was imported.
    struct ImportSummary: Codable {
        var imported: [Annotation]
        var skipped: [String]
    }

    /// `POST .../image-stamps`: the stamp to add and its picture, a JPEG or PNG file (base64
    /// in JSON).
    struct ImageStamp: Codable {
        var annotation: Annotation
        var image: Data
    }

    /// `PUT .../outline`: the outline as read back, and what the edit dropped.
    struct OutlineWritten: Codable {
        var outline: [OutlineItem]
        var report: OutlineEditReport
    }

    /// `POST .../signatures`: where the signature goes (an unsigned `field`, or a new field on
    /// `page` over `rect` in page space), whether it shows, what it says of itself, and
    /// whether it certifies the document (`forms` or `annotations`).
    struct SignRequest: Codable {
        var field: String?
        var page: Int?
        var rect: PageRect?
        var visible: Bool?
        var reason: String?
        var location: String?
        var certify: String?

        /// The options these ask for; 400 for a request that names no field or two, a text
        /// longer than 1,000 characters, or an unknown certification.
        func options() throws -> SigningOptions {
            let placement: SigningOptions.Placement
            switch (field, page) {
            case (let field?, nil) where rect == nil: placement = .field(field)
            case (nil, let page?): placement = .newField(pageIndex: page, area: rect)
            default: throw APIError.badRequest("give either field, or page (with rect for a visible signature)")
            }
            for text in [field, reason, location].compactMap({ $0 }) where text.count > 1000 {
                throw APIError.badRequest("field, reason and location are at most 1,000 characters")
            }
            let certification: CertificationPermissions?
            switch certify {
            case nil, "none": certification = nil
            case "forms": certification = .formFilling
            case "annotations": certification = .formFillingAndAnnotations
            default: throw APIError.badRequest("certify is none, forms or annotations")
            }
            return SigningOptions(placement: placement, isVisible: visible ?? false, reason: reason, location: location, certification: certification)
        }
    }

    /// `DELETE .../pages/{page}/links`: how many links were removed.
    struct LinksRemoved: Codable {
        var removed: Int
    }

    /// `POST .../unlock`: the reader's password for an encrypted document.
    struct Unlock: Codable {
        var password: String
    }

    /// `POST .../protected`: the passwords, permissions and method of a protected copy.
    struct Protect: Codable {
        var ownerPassword: String
        var userPassword: String?
        /// Permission names as `DocumentPermissions.named` spells them; none when absent.
        var permissions: [String]?
        var method: PasswordProtection.Method?

        /// The protection asked for; `invalidArgument` for an unknown permission or a
        /// protection `PasswordProtection.validate()` refuses.
        func protection() throws -> PasswordProtection {
            let protection = PasswordProtection(
                userPassword: userPassword ?? "", ownerPassword: ownerPassword, permissions: try DocumentPermissions(names: permissions ?? []),
                method: method ?? .aes256)
            try protection.validate()
            return protection
        }
    }

    /// `POST .../unlock`: whether a password was needed, and the key that now stands for it.
    struct Unlocked: Codable {
        var passwordNeeded: Bool
        var key: String?
    }
}
