extension String {
    /// The text of a C string both engines' C layers hand over (UTF-8); nil for NULL.
    package init?(optionalCString pointer: UnsafeMutablePointer<CChar>?) {
        guard let pointer else { return nil }
        self.init(cString: pointer)
    }
}
