import FetchedResultsKit

extension DefaultReloadPolicy {
    /// The app's reload policy: the library's default limits, with the share rule applied only
    /// from 8 changes on, so a few changes always animate however small the list (deleting
    /// the last search result animates).
    public static let grocery = DefaultReloadPolicy(minimumChangeCountForShare: 8)
}
