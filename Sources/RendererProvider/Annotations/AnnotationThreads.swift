/// A page's annotations as comment threads (`Annotation.inReplyTo`).
extension Array where Element == Annotation {
    /// The annotations that answer the annotation `id`, directly or through other replies
    /// (`Annotation.inReplyTo`), in this list's order; a loop of replies ends where it closes.
    public func replies(to id: String) -> [Annotation] {
        var thread: Set<String> = [id]
        var grew = true
        while grew {
            grew = false
            for annotation in self where !thread.contains(annotation.id) {
                if let root = annotation.inReplyTo, thread.contains(root) {
                    thread.insert(annotation.id)
                    grew = true
                }
            }
        }
        return filter { $0.id != id && thread.contains($0.id) }
    }

    /// The list as threads: each annotation that answers none (or one not in the list),
    /// followed by its replies, in this list's order; replies that answer each other in a
    /// loop, with no root, each a thread of its own.
    public func threads() -> [[Annotation]] {
        let ids = Set(map(\.id))
        var threads = filter { $0.inReplyTo.map { !ids.contains($0) } ?? true }.map { [$0] + replies(to: $0.id) }
        let placed = Set(threads.joined().map(\.id))
        threads += filter { !placed.contains($0.id) }.map { [$0] }
        return threads
    }

    /// The list in an order in which each annotation comes after the one of the list it
    /// answers, else as it is: the order to add them in (a reply needs its root on the page).
    func rootsFirst() -> [Annotation] {
        var pending = self
        var ordered: [Annotation] = []
        while !pending.isEmpty {
            let waiting = Set(pending.map(\.id))
            let next = pending.firstIndex { $0.inReplyTo.map { !waiting.contains($0) } ?? true } ?? 0
            ordered.append(pending.remove(at: next))
        }
        return ordered
    }
}
