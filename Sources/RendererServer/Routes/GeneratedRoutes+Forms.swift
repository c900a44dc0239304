import Foundation
import OpenAPIRuntime
import RendererProvider
import RendererServerHTTP

/// The document's interactive form: its fields, and filling them as `hostapp forms fill`
/// does (the same checks: read-only fields, options, maximum lengths, one line), saved into
/// the file like every edit.
extension GeneratedRoutes {
    /// Every field, with its value, options, flags and widgets (page and rectangle in page
    /// space), as the document's session holds them; `[]` for a document without a form.
    func formFields(_ input: Operations.FormFields.Input) async throws -> Operations.FormFields.Output {
        let document = try await servedDocument()
        return .ok(.init(body: .json(try Self.schema(try await document.withSession { try $0.formFields() }))))
    }

    /// Fills the fields the body names (`{"name": "Ada", "colors": ["red", "b"], "subscribe":
    /// "Off"}`) and saves the file; answers the fields whose values changed. 400 for a body
    /// that is not such values; 422 (`invalid-argument`) for values this form refuses (an
    /// unknown field, a value the field does not take); 403 for a read-only field or a
    /// document whose settings or permissions forbid filling.
    func fillForm(_ input: Operations.FillForm.Input) async throws -> Operations.FillForm.Output {
        let document = try await servedDocument()
        guard case .json(let body) = input.body else { throw APIError.badRequest("the body is not JSON") }
        let values = try Self.library(body, as: FormValues.self)
        return .ok(.init(body: .json(try Self.schema(try await document.edit { try $0.fillForm(from: values) }))))
    }
}
