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
    /// A reply given before its root comes right after it; replies that answer each other in
    /// a circle come last, as given. Linear in the list's length.
    func rootsFirst() -> [Annotation] {
        let ids = Set(map(\.id))
        var ordered: [Annotation] = []
        ordered.reserveCapacity(count)
        var placed: Set<String> = []
        var waiting: [String: [Int]] = [:]
        var done = [Bool](repeating: false, count: count)
        var stack: [Int] = []
        for start in indices {
            if let root = self[start].inReplyTo, root != self[start].id, ids.contains(root), !placed.contains(root) {
                waiting[root, default: []].append(start)
                continue
            }
            stack.append(start)
            while let next = stack.popLast() {
                guard !done[next] else { continue }
                done[next] = true
                ordered.append(self[next])
                placed.insert(self[next].id)
                stack += (waiting.removeValue(forKey: self[next].id) ?? []).reversed()
            }
        }
        ordered += indices.filter { !done[$0] }.map { self[$0] }
        return ordered
    }
}
