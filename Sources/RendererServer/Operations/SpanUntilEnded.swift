import RendererProvider
import Tracing

/// A span that ends at the first of several places that may end it (a wait that ends when
/// the work begins, or when it fails before): later calls to ``end()`` do nothing.
final class SpanUntilEnded: Sendable {
    private let span: Locked<(any Span)?>

    init(_ span: any Span) {
        self.span = Locked(span)
    }

    /// Ends the span, unless it ended already.
    func end() {
        span.withLock { span in
            span?.end()
            span = nil
        }
    }
}
