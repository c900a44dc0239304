#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How deep an XML document (a FictionBook) nests its elements, measured before an engine
/// lays it out: MuPDF's layout recurses once per level, and a 1.9 MB book nested 100,000
/// deep ended the process on its stack. Books nest a few dozen levels.
package enum MarkupNesting {
    /// The deepest nesting a laid-out XML document may have.
    package static let deepest = 256

    /// Throws `limitExceeded` when `bytes` nest elements deeper than ``deepest``.
    package static func check(_ bytes: Data, name: String) throws {
        let depth = deepestNesting(in: bytes, stoppingPast: deepest)
        guard depth <= deepest else {
            throw RendererError(.limitExceeded, "\(name) nests its elements more than \(deepest) deep, past what is laid out")
        }
    }

    /// The deepest nesting of elements in `bytes` (start tags open a level, end tags close
    /// one; empty-element tags, comments, CDATA, declarations and processing instructions do
    /// neither), counting stops once past `limit`.
    package static func deepestNesting(in bytes: Data, stoppingPast limit: Int) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            let b = raw.bindMemory(to: UInt8.self)
            let (lt, gt, slash, bang, question, quote, apostrophe) = (UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "\""), UInt8(ascii: "'"))
            var (index, depth, deepest) = (0, 0, 0)
            /// The index just past the first occurrence of `end` at or after `from`.
            func past(_ end: [UInt8], from: Int) -> Int {
                var i = from
                while i + end.count <= b.count {
                    if b[i] == end[0], (0..<end.count).allSatisfy({ b[i + $0] == end[$0] }) { return i + end.count }
                    i += 1
                }
                return b.count
            }
            while index < b.count {
                guard b[index] == lt, index + 1 < b.count else {
                    index += 1
                    continue
                }
                let next = b[index + 1]
                if next == slash {
                    depth -= 1
                    index = past([gt], from: index + 2)
                } else if next == bang {
                    let rest = index + 2
                    if rest + 1 < b.count, b[rest] == UInt8(ascii: "-"), b[rest + 1] == UInt8(ascii: "-") {
                        index = past(Array("-->".utf8), from: rest + 2)
                    } else if rest + 7 <= b.count, Array(b[rest..<(rest + 7)]) == Array("[CDATA[".utf8) {
                        index = past(Array("]]>".utf8), from: rest + 7)
                    } else {
                        index = past([gt], from: rest)
                    }
                } else if next == question {
                    index = past(Array("?>".utf8), from: index + 2)
                } else {
                    // A start tag: its end is the first '>' outside a quoted attribute value.
                    var i = index + 1
                    var quoted: UInt8?
                    while i < b.count {
                        let c = b[i]
                        if let q = quoted {
                            if c == q { quoted = nil }
                        } else if c == quote || c == apostrophe {
                            quoted = c
                        } else if c == gt {
                            break
                        }
                        i += 1
                    }
                    if i < b.count, b[i - 1] != slash {
                        depth += 1
                        deepest = max(deepest, depth)
                        if deepest > limit { return deepest }
                    }
                    index = i + 1
                }
            }
            return deepest
        }
    }
}
