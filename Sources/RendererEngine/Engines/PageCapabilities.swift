// What an engine page does beyond its facts, text and pixels: one protocol per capability,
// with no default answers, reached through `EnginePage.capability(_:)` as a document's are.

/// Reads the links on the page (``Capability/links``).
public protocol LinkReading: EnginePage {
    /// The page's link areas in page space with resolved destinations; links that lead
    /// nowhere resolvable are left out.
    func links() throws -> [Link]
}

/// Lists the page's annotations (``Capability/annotations``).
public protocol AnnotationReading: EnginePage {
    /// The page's annotations in the order of its `/Annots` array, leaving out links and
    /// popups, each identified as ``Annotation/id`` says (the positional keys computed as
    /// EngineSupport's `AnnotationIdentity` does), geometry in page space.
    func annotations() throws -> [Annotation]
}

/// Adds, changes and removes annotations (``Capability/editAnnotations``).
///
/// ``addAnnotation(_:)`` is only called with a kind and fields the renderer's
/// ``AnnotationSupport`` declares; the annotation's `id` is a new unique name, written as
/// `/NM` where the engine can. It stores an appearance or a form every viewer draws, and
/// returns the annotation as read back. ``updateAnnotation(_:)`` changes the annotation with
/// the same `id` to the given fields; both throw `invalidArgument` when the engine refuses a
/// value. ``removeAnnotation(id:)`` removes it with its popup. Identities of the page's other
/// annotations do not change while the document is open.
public protocol AnnotationWriting: AnnotationReading {
    /// Adds an annotation and returns it as read back.
    func addAnnotation(_ annotation: Annotation) throws -> Annotation
    /// Changes the annotation with the same identity and returns it as read back.
    func updateAnnotation(_ annotation: Annotation) throws -> Annotation
    /// Removes the annotation with this identity, with its popup.
    func removeAnnotation(id: String) throws
}

/// Adds stamps that show an image (``Capability/imageStamps``).
public protocol ImageStamping: EnginePage {
    /// Adds the stamp annotation `annotation` with an appearance that draws `image` over
    /// its whole rectangle, and returns it as read back; nothing is added when it throws.
    func addImageStamp(_ annotation: Annotation, image: StampImage) throws -> Annotation
}

/// Applies redaction marks (``Capability/redact``).
public protocol Redacting: EnginePage {
    /// Applies the page's redaction annotations: removes the content under them and then
    /// them, drawing a black box over each area when `blackBoxes` is set. Returns whether the
    /// page had any.
    func applyRedactions(blackBoxes: Bool) throws -> Bool
}
