/// One section of a controller's results: its name, index title and rows.
///
/// A section's name, title, count and identifier describe the results at the moment it was
/// read from ``ResultsController/sections``; its ``objects`` are always read from the
/// controller's current results, so a section kept across a change never hands out a deleted
/// object.
public struct ResultsSection<Object: GraphObject> {
    /// The section's name, made from its key by the section key's title transform.
    public let name: String
    /// The title of the section in a section index, from
    /// ``ResultsController/sectionIndexTitle(forSectionName:)``.
    public let indexTitle: String?
    /// The number of rows in the section (inside the fetch window).
    public let numberOfObjects: Int
    /// The section key's value, the section's stable identity.
    public let identifier: SortValue
    let ranks: Range<Int>
    let generation: Int
    let engine: ResultsEngine<Object>

    /// The objects of this section in the controller's current results, in order: the rows
    /// the section had when it was read, or, after the results changed, the rows now in the
    /// section with the same ``identifier`` (none when that section is gone).
    ///
    /// - Complexity: O(m + log n) for m rows; after the results changed, plus O(s) for s
    ///   visible sections.
    public var objects: [Object] {
        engine.settleSharedIndex()
        var current = ranks
        if generation != engine.generation {
            let index = engine.index
            guard let position = index.visibleSections.firstIndex(where: { $0.value == identifier }) else { return [] }
            current = index.visibleSectionRanks[position]
        }
        return engine.index.ids(inRanks: current).map(engine.object(with:))
    }

    /// The value of a total over this section's rows in the controller's current results
    /// (the rows now in the section with the same ``identifier``; the value of no rows when
    /// that section is gone): one of the request's ``FetchRequest/totals``, kept current
    /// with each commit, or any other, computed from the rows when asked.
    ///
    /// - Parameter total: The total.
    /// - Returns: Its value.
    /// - Complexity: O(1) for a total of the request (amortized for a minimum or maximum);
    ///   O(n) for another.
    public func total<Value>(_ total: Total<Object, Value>) -> Value {
        engine.value(of: total, section: identifier)
    }
}

@available(*, unavailable)
extension ResultsSection: Sendable {}
