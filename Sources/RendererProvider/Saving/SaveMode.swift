/// How a document is written when it is saved.
public enum SaveMode: String, Sendable, Codable, CaseIterable {
    /// Incremental where the file allows it (the original bytes stay a prefix of the result,
    /// so signatures stay valid), otherwise a full rewrite.
    case automatic
    /// The original bytes followed by an update holding the changes.
    case incremental
    /// A whole new file, with unused objects dropped. Not every renderer can
    /// (`AnnotationSupport.canRewrite`).
    case rewrite
}
