import CQPDF

/// Streams that hold the same bytes under the same dictionary, kept once: every reference to
/// a copy is pointed at the first, and the copies, reached by nothing then, are not written.
/// What ``PDFOptimizer`` does to a picture, a font or a profile embedded again and again (a
/// logo on every page, a converter that writes each image anew).
///
/// Two streams are the same when their stored bytes (decrypted, still filtered) are equal and
/// their dictionaries are, `/Length` aside. Pages' content streams are left apart: an editor
/// that rewrites one page's content in place must not change another page. Only the objects
/// the trailer reaches are looked at, each once, so that the work follows the document's
/// size, not what its trailer claims.
struct DuplicateStreams {
    let qpdf: qpdf_data?

    /// An indirect object's number and generation.
    private struct ObjectKey: Hashable {
        var number: Int32
        var generation: Int32
    }

    /// Points every reference to a copy at its first; returns how many copies nothing reaches now.
    func run() -> Int {
        let trailer = qpdf_get_trailer(qpdf)
        let objects = reachable(from: trailer)
        let contents = pageContents()
        let kept = firsts(among: objects.filter { qpdf_oh_is_stream(qpdf, $0) != 0 && !contents.contains(key(of: $0)) })
        guard !kept.isEmpty else { return 0 }
        for object in [trailer] + objects { redirect(within: object, kept) }
        return kept.count
    }

    private func key(of object: qpdf_oh) -> ObjectKey {
        ObjectKey(number: qpdf_oh_get_object_id(qpdf, object), generation: qpdf_oh_get_generation(qpdf, object))
    }

    /// What a dictionary (a stream's, for a stream) or an array holds directly.
    private func items(of object: qpdf_oh) -> [qpdf_oh] {
        let container = qpdf_oh_is_stream(qpdf, object) != 0 ? qpdf_oh_get_dict(qpdf, object) : object
        if qpdf_oh_is_array(qpdf, container) != 0 {
            return (0..<qpdf_oh_get_array_n_items(qpdf, container)).map { qpdf_oh_get_array_item(qpdf, container, $0) }
        }
        return QPDFObjects.keys(of: container, in: qpdf).map { qpdf_oh_get_key(qpdf, container, $0) }
    }

    /// The indirect objects `trailer` reaches, each once, in the order met.
    private func reachable(from trailer: qpdf_oh) -> [qpdf_oh] {
        var seen = Set<ObjectKey>()
        var found: [qpdf_oh] = []
        var pending = [trailer]
        while let object = pending.popLast() {
            for item in items(of: object) {
                if qpdf_oh_is_indirect(qpdf, item) != 0 {
                    guard seen.insert(key(of: item)).inserted else { continue }
                    found.append(item)
                }
                pending.append(item)
            }
        }
        return found
    }

    /// The pages' content streams.
    private func pageContents() -> Set<ObjectKey> {
        var keys = Set<ObjectKey>()
        for index in 0..<max(0, qpdf_get_num_pages(qpdf)) {
            let contents = qpdf_oh_get_key_if_dict(qpdf, qpdf_get_page_n(qpdf, Int(index)), "/Contents")
            let streams = qpdf_oh_is_array(qpdf, contents) != 0 ? items(of: contents) : [contents]
            for stream in streams where qpdf_oh_is_indirect(qpdf, stream) != 0 { keys.insert(key(of: stream)) }
        }
        return keys
    }

    /// The copies among `streams`, each mapped to the first stream equal to it.
    private func firsts(among streams: [qpdf_oh]) -> [ObjectKey: qpdf_oh] {
        struct Signature: Hashable {
            var dictionary: String
            var length: Int
            var digest: Int
        }
        var first: [Signature: [qpdf_oh]] = [:]
        var kept: [ObjectKey: qpdf_oh] = [:]
        for stream in streams {
            guard let data = QPDFObjects.streamData(stream, in: qpdf, decoding: qpdf_dl_none) else { continue }
            let signature = Signature(dictionary: dictionaryText(qpdf_oh_get_dict(qpdf, stream)), length: data.count, digest: data.hashValue)
            // A digest can collide: a copy is one whose bytes are equal, not only its digest.
            if let original = first[signature, default: []].first(where: { QPDFObjects.streamData($0, in: qpdf, decoding: qpdf_dl_none) == data }) {
                kept[key(of: stream)] = original
            } else {
                first[signature, default: []].append(stream)
            }
        }
        return kept
    }

    /// A stream dictionary as text, keys in order, `/Length` left out (a copy may keep its
    /// length in an object of its own).
    private func dictionaryText(_ dictionary: qpdf_oh) -> String {
        QPDFObjects.keys(of: dictionary, in: qpdf).sorted().filter { $0 != "/Length" }.map { key in
            key + " " + String(cString: qpdf_oh_unparse(qpdf, qpdf_oh_get_key(qpdf, dictionary, key)))
        }.joined(separator: " ")
    }

    /// Points the references to copies that `object` holds, in its direct dictionaries and
    /// arrays at any depth, at their firsts.
    private func redirect(within object: qpdf_oh, _ kept: [ObjectKey: qpdf_oh]) {
        var pending = [qpdf_oh_is_stream(qpdf, object) != 0 ? qpdf_oh_get_dict(qpdf, object) : object]
        while let container = pending.popLast() {
            let indirect = { (item: qpdf_oh) in qpdf_oh_is_indirect(qpdf, item) != 0 }
            if qpdf_oh_is_array(qpdf, container) != 0 {
                for index in 0..<qpdf_oh_get_array_n_items(qpdf, container) {
                    let item = qpdf_oh_get_array_item(qpdf, container, index)
                    if !indirect(item) {
                        pending.append(item)
                    } else if let first = kept[key(of: item)] {
                        qpdf_oh_set_array_item(qpdf, container, index, first)
                    }
                }
            } else {
                for name in QPDFObjects.keys(of: container, in: qpdf) {
                    let item = qpdf_oh_get_key(qpdf, container, name)
                    if !indirect(item) {
                        pending.append(item)
                    } else if let first = kept[key(of: item)] {
                        qpdf_oh_replace_key(qpdf, container, name, first)
                    }
                }
            }
        }
    }
}
