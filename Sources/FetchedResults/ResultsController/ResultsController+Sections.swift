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
    let controller: ResultsController<Object>

    /// The objects of this section in the controller's current results, in order: the rows
    /// the section had when it was read, or, after the results changed, the rows now in the
    /// section with the same ``identifier`` (none when that section is gone).
    ///
    /// - Complexity: O(m + log n) for m rows; after the results changed, plus O(s) for s
    ///   visible sections.
    public var objects: [Object] {
        var current = ranks
        if generation != controller.generation {
            let index = controller.index
            guard let position = index.visibleSections.firstIndex(where: { $0.value == identifier }) else { return [] }
            current = index.visibleSectionRanks[position]
        }
        return controller.index.ids(inRanks: current).map(controller.object(with:))
    }
}

@available(*, unavailable)
extension ResultsSection: Sendable {}

extension ResultsController {
    /// The sections of the results, in order (one section named "" when the request has no
    /// section key and there are results). Observable.
    ///
    /// - Complexity: O(s) for s visible sections.
    public var sections: [ResultsSection<Object>] {
        registrar.access(self, keyPath: sectionsKeyPath)
        let values = index.visibleSections
        return zip(values, index.visibleSectionRanks).map { section, ranks in
            let name = sectionName(for: section.value)
            return ResultsSection(
                name: name, indexTitle: sectionIndexTitle(forSectionName: name), numberOfObjects: section.count,
                identifier: section.value, ranks: ranks, generation: generation, controller: self)
        }
    }

    /// The name of the section with this key value.
    func sectionName(for value: SortValue) -> String {
        if let name = sectionNames[value] { return name }
        switch value {
        case .null: return ""
        case .string(let text): return text
        default: return value.description
        }
    }

    /// The titles of the section index: each section's index title, in order, without
    /// repeats.
    ///
    /// - Complexity: O(s) for s visible sections.
    public var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return sections.compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }

    /// The section a tap on a section index title jumps to: the first section whose index
    /// title is `title`.
    ///
    /// - Parameters:
    ///   - title: A title from ``sectionIndexTitles``.
    ///   - titleIndex: The title's position in ``sectionIndexTitles``; used when no section
    ///     has `title` (the nearest section before it).
    /// - Returns: A section position.
    /// - Complexity: O(s) for s visible sections.
    public func section(forSectionIndexTitle title: String, at titleIndex: Int) -> Int {
        let sections = sections
        if let match = sections.firstIndex(where: { $0.indexTitle == title }) { return match }
        let titles = sectionIndexTitles
        require(titleIndex >= 0 && titleIndex <= titles.count,
                     "section(forSectionIndexTitle:at:): title index \(titleIndex) outside 0...\(titles.count)")
        let earlier = Set(titles.prefix(titleIndex))
        return sections.lastIndex { $0.indexTitle.map(earlier.contains) ?? false } ?? 0
    }
}
