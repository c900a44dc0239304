import Foundation
import Hummingbird
import RendererProvider
import RendererServerHTTP

/// The document's interactive form: its fields, and filling them as `hostapp forms fill`
/// does (the same checks: read-only fields, options, maximum lengths, one line), saved
/// into the file like every edit.
extension Routes {
    /// `POST .../form` with values as JSON (`{"name": "Ada", "colors": ["red", "b"],
    /// "subscribe": "Off"}`): fills those fields and saves the file; answers the fields
    /// whose values changed. 400 for a body that is not such values; 422 (`invalid-argument`)
    /// for values the schema allows that this form refuses: an unknown field or a value the
    /// field does not take. 403 for a read-only field or a document whose settings or
    /// permissions forbid filling.
    @Sendable func fillForm(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let document = try await servedDocument(request, context)
        let values = try await decode(FormValues.self, from: request)
        return try Self.json(try await document.edit { try $0.fillForm(from: values) })
    }
}
