/// What importing annotations into a document did.
public struct AnnotationImport: Sendable {
    /// The annotations as stored, in the order given (each reply after its root).
    public var imported: [Annotation] = []
    /// The fields left out of each imported annotation (by its stored identity) because
    /// the renderer cannot write them.
    public var droppedFields: [String: [AnnotationField]] = [:]
    /// A line for each annotation that was not imported, saying why.
    public var skipped: [String] = []
}

extension Document {
    /// Adds annotations from elsewhere (another document, JSON, a property list, XFDF),
    /// keeping everything this renderer can write. An annotation whose identity is already
    /// on its page replaces it, so importing the same annotations twice changes nothing.
    /// Kinds the renderer cannot create are skipped, fields it cannot write are dropped,
    /// and both are reported. A reply is added after the annotation it answers.
    ///
    /// The annotations are added in runs of those on one page, each run with the page loaded
    /// and its annotations listed once: importing thousands onto a page takes time in
    /// proportion to their number, not its square.
    public func importAnnotations(_ incoming: [Annotation]) throws -> AnnotationImport {
        let renderer = self.renderer
        let support = renderer.annotationSupport
        var result = AnnotationImport()
        var run: [(annotation: Annotation, label: String, dropped: Set<AnnotationField>)] = []
        func flush() throws {
            guard let page = run.first?.annotation.pageIndex else { return }
            // What needs no page is checked first, with the document free; the rest while the
            // engine holds the page. Marked changed even when the engine fails part of the way.
            let checked = try run.map { item -> RendererError? in
                do {
                    try requireEditing(item.annotation, creating: false)
                    return nil
                } catch let error as RendererError where error.code == .invalidArgument || error.code == .unsupported {
                    return error
                }
            }
            defer { markChanged() }
            let outcomes = try withPage(page, needing: nil, as: AnnotationWriting.self) { engine in
                var held = Dictionary(try engine.annotations().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                var taken = Set(held.keys)
                var outcomes: [Result<Annotation, RendererError>] = []
                for (item, refusal) in zip(run, checked) {
                    if let refusal {
                        outcomes.append(.failure(refusal))
                        continue
                    }
                    let annotation = item.annotation
                    do {
                        let stored: Annotation
                        if let existing = annotation.id.isEmpty ? nil : held[annotation.id] {
                            stored = try Self.updating(annotation, on: engine, current: existing, by: renderer)
                        } else {
                            try Self.requireWritable(annotation.setFields, kind: annotation.kind, by: renderer)
                            stored = try Self.adding(annotation, on: engine, taken: taken, by: renderer) { page, new in try page.addAnnotation(new) }
                        }
                        held[stored.id] = stored
                        taken.insert(stored.id)
                        outcomes.append(.success(stored))
                    } catch let error as RendererError where error.code == .invalidArgument || error.code == .unsupported {
                        outcomes.append(.failure(error))
                    }
                }
                return outcomes
            }
            for (item, outcome) in zip(run, outcomes) {
                switch outcome {
                case .success(let stored):
                    result.imported.append(stored)
                    if !item.dropped.isEmpty { result.droppedFields[stored.id] = item.dropped.sorted() }
                case .failure(let error):
                    result.skipped.append("\(item.label): \(error.message)")
                }
            }
            run = []
        }
        for var annotation in incoming.rootsFirst() {
            let label = "\(annotation.kind) \(annotation.id.isEmpty ? "(unnamed)" : "\"\(annotation.id)\"") on page \(annotation.pageIndex + 1)"
            guard support.creatableKinds.contains(annotation.kind) else {
                result.skipped.append("\(label): \(renderer.engineName) cannot create \(annotation.kind) annotations")
                continue
            }
            guard (0..<pageCount).contains(annotation.pageIndex) else {
                result.skipped.append("\(label): the document has \(pageCount) pages")
                continue
            }
            let dropped = annotation.setFields.subtracting(support.writableFields(for: annotation.kind))
            annotation = annotation.clearing(dropped)
            if let page = run.first?.annotation.pageIndex, page != annotation.pageIndex { try flush() }
            run.append((annotation, label, dropped))
        }
        try flush()
        return result
    }
}
