import Foundation
import OpenAPIRuntime
import RendererProvider

/// What the routes swift-openapi-generator makes from the OpenAPI document share (the
/// server's and collaboration's): how their JSON and dates are read and written, and how a
/// library value and a value of the document's types pass into each other. A type that
/// implements generated routes conforms.
package protocol GeneratedRouteSupport: RouteSupport {}

extension GeneratedRouteSupport {
    /// JSON as the other routes write it (keys sorted, slashes as they are, no indentation),
    /// and dates read as every JSON decoder of the project reads them.
    package static var configuration: Configuration {
        Configuration(dateTranscoder: RFC3339Transcoder(), jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// `value`, a library value the API answers as JSON, as the generated schema type `T`:
    /// written as the library writes it and read as the document describes it. A field the
    /// library writes and the document lacks is not answered; one the document requires and
    /// the library leaves out fails here (500) rather than at a client.
    package static func schema<T: Decodable>(_ value: some Encodable) throws -> T {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(T.self, from: encoder.encode(value))
    }

    /// `body`, a request body as the document describes it, as the library's `T`: written
    /// as the generated code writes it and read with the library's own checks, as the
    /// hand-written routes read their bodies (400 saying what is wrong where).
    package static func library<T: Decodable>(_ body: some Encodable, as type: T.Type) throws -> T {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try decoded(T.self, from: try encoder.encode(body))
    }
}

/// Dates written as ISO 8601 (`2026-12-06T08:30:00Z`, as the library writes them) and read as
/// RFC 3339 allows (`RFC3339Date`: fractional seconds, any offset to ±23:59), where the
/// generated code's own reading takes whole seconds only.
package struct RFC3339Transcoder: DateTranscoder {
    package init() {}

    package func encode(_ date: Date) throws -> String { date.formatted(Date.ISO8601FormatStyle()) }

    package func decode(_ text: String) throws -> Date {
        guard let date = RFC3339Date.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "Expected date string to be RFC 3339-formatted."))
        }
        return date
    }
}
