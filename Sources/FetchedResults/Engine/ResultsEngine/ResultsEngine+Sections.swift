extension ResultsEngine {
    /// The sections of the results, in order (one section named "" when the request has no
    /// section key and there are results). Observable.
    ///
    /// - Complexity: O(s) for s visible sections.
    var sections: [ResultsSection<Object>] {
        registrar.access(self, keyPath: sectionsKeyPath)
        let values = index.visibleSections
        return zip(values, index.visibleSectionRanks).map { section, ranks in
            let name = sectionName(for: section.value)
            return ResultsSection(
                name: name, indexTitle: sectionIndexTitle(forSectionName: name), numberOfObjects: section.count,
                identifier: section.value, ranks: ranks, generation: generation, engine: self)
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
    var sectionIndexTitles: [String] {
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
    func section(forSectionIndexTitle title: String, at titleIndex: Int) -> Int {
        let sections = sections
        if let match = sections.firstIndex(where: { $0.indexTitle == title }) { return match }
        let titles = sectionIndexTitles
        require(titleIndex >= 0 && titleIndex <= titles.count,
                     "section(forSectionIndexTitle:at:): title index \(titleIndex) outside 0...\(titles.count)")
        let earlier = Set(titles.prefix(titleIndex))
        return sections.lastIndex { $0.indexTitle.map(earlier.contains) ?? false } ?? 0
    }
}
