import Foundation
import HTTPTypes
import RendererServerHTTP

/// The words of a 400 for a query parameter the generated code could not read: its own error
/// says what failed (a number, a value of a list) but not which parameter, so the parameter is
/// found again against the operation's parameters as the OpenAPI document declares them
/// (``DeclaredQueryParameters``) and named with what it must be.
enum QueryParameterRefusal {
    /// Why the query of `request` does not meet operation `operationID`'s parameters, naming
    /// the first that does not (`first must be a whole number from 1, not "abc"`); nil when
    /// each declared parameter given reads as the document says.
    static func message(operationID: String, request: HTTPRequest) -> String? {
        guard let declared = DeclaredQueryParameters.of(operation: operationID), let path = request.path, let mark = path.firstIndex(of: "?") else { return nil }
        for pair in path[path.index(after: mark)...].split(separator: "&") {
            let halves = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Routes.formDecoded(halves[0]), let expectation = declared[name] else { continue }
            guard let value = halves.count > 1 ? Routes.formDecoded(halves[1]) : "" else { return "\(name) is not percent-encoded UTF-8" }
            if let refusal = expectation.refusal(of: value) { return "\(name) \(refusal), not \"\(value.prefix(40))\"" }
        }
        return nil
    }
}
