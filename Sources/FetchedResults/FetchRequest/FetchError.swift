/// An error a fetch request causes at run time.
public enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A Foundation `SortDescriptor` whose key cannot be extracted; the text says which.
    case unsupportedSortDescriptor(String)

    public var description: String {
        switch self {
        case .unsupportedSortDescriptor(let detail): "unsupported sort descriptor: \(detail)"
        }
    }
}
