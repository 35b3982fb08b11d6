/// The identities of a controller's results at one moment — section identifiers and object
/// IDs — as a `Sendable` value, for consumers in the style of diffable data sources.
public struct ResultsSnapshot: Sendable, Hashable {
    /// One section of a snapshot.
    public struct Section: Sendable, Hashable {
        /// The section key's value, the section's identity.
        public var identifier: SortValue
        /// The section's name.
        public var name: String
        /// The IDs of the section's objects, in order.
        public var objectIDs: [ObjectID]

        /// Creates a section.
        ///
        /// - Parameters:
        ///   - identifier: The section key's value.
        ///   - name: The section's name.
        ///   - objectIDs: The IDs of its objects, in order.
        /// - Complexity: O(1).
        public init(identifier: SortValue, name: String, objectIDs: [ObjectID]) {
            self.identifier = identifier
            self.name = name
            self.objectIDs = objectIDs
        }
    }

    /// The sections, in order.
    public var sections: [Section]

    /// Creates a snapshot.
    ///
    /// - Parameter sections: The sections, in order.
    /// - Complexity: O(1).
    public init(sections: [Section]) {
        self.sections = sections
    }

    /// The section identifiers, in order.
    public var sectionIdentifiers: [SortValue] { sections.map(\.identifier) }

    /// Every object ID, section after section.
    public var itemIdentifiers: [ObjectID] { sections.flatMap(\.objectIDs) }

    /// The number of objects over all sections.
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.objectIDs.count } }

    /// The object IDs of the section with this identifier (empty when there is none).
    ///
    /// - Parameter identifier: A section identifier.
    /// - Returns: The section's object IDs.
    /// - Complexity: O(*s*) for *s* sections.
    public func itemIdentifiers(inSection identifier: SortValue) -> [ObjectID] {
        sections.first { $0.identifier == identifier }?.objectIDs ?? []
    }
}

extension ResultsEngine {
    /// The identities of the current results, as a `Sendable` value.
    ///
    /// - Complexity: O(n) for n visible rows.
    var snapshot: ResultsSnapshot {
        ResultsSnapshot(sections: index.visibleRows.map { section, ids in
            ResultsSnapshot.Section(identifier: section, name: sectionName(for: section), objectIDs: ids)
        })
    }
}
