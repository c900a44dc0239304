import RendererProvider

extension PageSize {
    /// A size given on the command line as WIDTHxHEIGHT in points, such as `595x842`;
    /// `invalidArgument`, naming `option`, for anything else.
    package init(argument text: String, option: String) throws {
        let sides = text.lowercased().split(separator: "x").compactMap { Double($0) }
        guard sides.count == 2 else { throw RendererError(.invalidArgument, "\(option) takes WIDTHxHEIGHT in points, such as 595x842, not \(text)") }
        self.init(width: sides[0], height: sides[1])
    }
}
