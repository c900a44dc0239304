import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// Which optional-content groups a page image shows and hides; the groups themselves are
/// listed by ``GeneratedRoutes/optionalContent(_:)``.
extension Routes {
    /// The most group indices one of `show` and `hide` may name.
    static let maximumGroupsNamed = 1000

    /// The optional-content groups a page image shows and hides: `show=` and `hide=`, each a
    /// comma-separated list of group indices (from 0); 400 for anything else. The engine then
    /// refuses (400) an index the document lacks.
    static func optionalContentVisibility(show: String?, hide: String?) throws -> OptionalContentVisibility {
        func indices(_ name: String, _ text: String?) throws -> Set<Int> {
            guard let text, !text.isEmpty else { return [] }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count <= maximumGroupsNamed else { throw APIError.badRequest("\(name) may name at most \(maximumGroupsNamed) optional-content groups") }
            return try Set(parts.map { part in
                guard let index = Int(part), index >= 0 else {
                    throw APIError.badRequest("\(name) must be optional-content group indices from 0, separated by commas, not \"\(text.prefix(40))\"")
                }
                return index
            })
        }
        return OptionalContentVisibility(shown: try indices("show", show), hidden: try indices("hide", hide))
    }
}
