import Foundation
import Hummingbird

/// A served file sent as it is on disk: streamed in chunks (never read into memory whole),
/// with byte ranges (RFC 9110): `Accept-Ranges: bytes`, one range of `Range: bytes=…`
/// answered 206 with its `Content-Range` (416 when it lies past the end), `If-Range`
/// honoured against the ETag, and a `Content-Disposition` whose name survives any
/// characters (`filename*`, RFC 8187).
package struct FileDownload: Sendable {
    /// The file's path on the server (never shown).
    package var path: String
    /// The name the client saves it under.
    package var name: String
    /// The file's strong ETag, from its version.
    package var eTag: String
    /// The media type.
    package var type = "application/pdf"

    /// The file at `path`, saved by the client as `name`, of media `type`, whose version
    /// `eTag` names.
    package init(path: String, name: String, eTag: String, type: String = "application/pdf") {
        self.path = path
        self.name = name
        self.eTag = eTag
        self.type = type
    }

    /// The answer to `request`: the whole file, or the range it asks for.
    package func response(to request: Request, context: some RequestContext) async throws -> Response {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else {
            throw APIError.notFound("the document's file can no longer be read")
        }
        var headers: HTTPFields = [
            .contentType: type, .eTag: eTag, .acceptRanges: "bytes", .cacheControl: "no-store",
            .contentDisposition: Self.disposition(name),
        ]
        var status = HTTPResponse.Status.ok
        var range: ClosedRange<Int>? = size > 0 ? 0...(size - 1) : nil
        if let asked = request.headers[.range], request.headers[.ifRange].map({ $0 == eTag }) ?? true {
            switch Self.range(asked, size: size) {
            case .some(.some(let part)):
                (status, range) = (.partialContent, part)
                headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(size)"
            case .some(.none):
                var error = APIError(.rangeNotSatisfiable, code: "range-not-satisfiable", "the range lies past the file's \(size) bytes")
                error.headers[.contentRange] = "bytes */\(size)"
                throw error
            case .none:
                break  // not one byte range: the whole file, as RFC 9110 allows
            }
        }
        guard let range else { return Response(status: .ok, headers: headers, body: .init()) }
        // Small chunks: what a slow reader has not taken yet waits in the connection's buffers,
        // a few chunks per client.
        let body = try await FileIO().loadFile(path: path, range: range, context: context, chunkLength: 32 << 10)
        return Response(status: status, headers: headers, body: body)
    }

    /// The one byte range `header` asks of a file of `size` bytes: nil when the header is not
    /// a single byte range (it is then ignored), `.some(nil)` when it cannot be satisfied.
    static func range(_ header: String, size: Int) -> ClosedRange<Int>?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let (first, last) = (parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        let digits = { (text: String) in !text.isEmpty && text.count <= 18 && text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber) }
        if first.isEmpty {
            // The last N bytes.
            guard digits(last), let count = Int(last) else { return nil }
            guard count > 0, size > 0 else { return .some(nil) }
            return .some(max(0, size - count)...(size - 1))
        }
        guard digits(first), let start = Int(first), last.isEmpty || digits(last) else { return nil }
        let end = last.isEmpty ? Int.max : Int(last)!
        guard end >= start else { return nil }
        guard start < size else { return .some(nil) }
        return .some(start...min(end, size - 1))
    }

    /// `attachment` with `name` as a plain ASCII `filename` (other characters as `_`) and,
    /// exactly, as `filename*` in UTF-8.
    package static func disposition(_ name: String) -> String {
        let plain = String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" ? Character($0) : "_" })
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "!#$&+-.^_`|~"))
        let encoded = name.addingPercentEncoding(withAllowedCharacters: allowed.subtracting(CharacterSet(charactersIn: "%"))) ?? plain
        return "attachment; filename=\"\(plain)\"; filename*=UTF-8''\(encoded)"
    }
}
