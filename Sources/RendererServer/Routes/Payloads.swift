import Foundation
import RendererProvider
import RendererServerHTTP
import RendererSignatures

/// The JSON the hand-written routes read and answer beyond the library's own Codable types
/// (annotations, links, page infos), which they use as they are; the generated routes
/// (``GeneratedRoutes``) use the document's types.
enum Payload {
    /// One line of the search stream: a hit, or the last line saying the search is done.
    struct SearchLine: Codable {
        var pageIndex: Int?
        var quads: [Quad]?
        var done: Bool?
        var pagesSearched: Int?
        var hits: Int?
    }

    /// `POST .../image-stamps`: the stamp to add and its picture, a JPEG or PNG file (base64
    /// in JSON).
    struct ImageStamp: Codable {
        var annotation: Annotation
        var image: Data
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
}
