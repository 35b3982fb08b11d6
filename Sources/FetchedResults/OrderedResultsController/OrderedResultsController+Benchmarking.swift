import ObjectGraph

extension OrderedResultsController {
    /// Whether commits wait until ``_applyDeferredCommits()`` instead of updating the
    /// controller while the graph commits: lets a benchmark time the controller's update
    /// apart from the graph's commit. Not for apps.
    @_spi(Benchmarks)
    public var _defersCommits: Bool {
        get { defersCommits }
        set { defersCommits = newValue }
    }

    /// Applies the commits that waited while ``_defersCommits`` was set, oldest first.
    ///
    /// - Complexity: As many commit updates.
    @_spi(Benchmarks)
    public func _applyDeferredCommits() {
        let waiting = deferredCommits
        deferredCommits = []
        for changes in waiting { apply(changes) }
    }
}
