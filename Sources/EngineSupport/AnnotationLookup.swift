import RendererEngine

extension Array where Element == Annotation {
    /// Where the annotation `id` stands in this list of page `pageIndex`'s annotations;
    /// `invalidArgument`, naming the annotation and the page, when it is not there.
    package func position(of id: String, pageIndex: Int, rendererID: String) throws -> Int {
        guard let position = firstIndex(where: { $0.id == id }) else {
            throw RendererError(.invalidArgument, "there is no annotation \"\(id)\" on page \(pageIndex + 1)", rendererID: rendererID)
        }
        return position
    }

    /// The annotation `id` of this list, failing as ``position(of:pageIndex:backend:)`` does.
    package func annotation(withID id: String, pageIndex: Int, rendererID: String) throws -> Annotation {
        self[try position(of: id, pageIndex: pageIndex, rendererID: rendererID)]
    }
}
