import ObjectGraph

/// The texts a folded-text search narrowed through since it last showed every base row,
/// each with the rows that narrowing removed, so a later broadening or edit tests only the
/// rows that left after the text it falls back to, instead of every base row.
///
/// Level `i` holds a needle that contains level `i - 1`'s (level 0's contains the empty
/// text) and the base rows that matched level `i - 1`'s needle but not its own, in the base
/// order, when the level was pushed (level 0's list is never needed and stays empty: the
/// empty text matches every base row). The top level's needle is the current one. A commit
/// may change any row, so it resets the stack to the current needle alone.
struct RefinementStack {
    /// One narrowing step.
    struct Level {
        /// The folded text of this step.
        var needle: FoldedText
        /// The base rows the previous step matched and this one does not, in base order.
        var removed: [ObjectID]
        /// The base rank of each removed row, when the step knew them.
        var removedRanks: [Int32]?
    }

    /// The steps, the current text last; empty while the text is empty.
    private(set) var levels: [Level] = []

    /// Creates a stack holding only `needle` (nothing when it is empty).
    init(needle: FoldedText) {
        reset(to: needle)
    }

    /// Forgets every step but `needle`'s: the rows it matches are the search's rows.
    mutating func reset(to needle: FoldedText) {
        // Every commit resets the stack: one that holds only `needle` already stays.
        if levels.count == 1 && levels[0].removed.isEmpty && levels[0].needle == needle { return }
        levels = needle.isEmpty ? [] : [Level(needle: needle, removed: [], removedRanks: [])]
    }

    /// Forgets every step: the text is empty.
    mutating func removeAll() {
        levels = []
    }

    /// The deepest level whose needle `needle` contains, so that everything `needle`
    /// matches that level matched too; `nil` when there is none (only the empty text is).
    ///
    /// - Complexity: O(d · m) for d levels and the needles' lengths.
    func deepestLevel(narrowedBy needle: FoldedText) -> Int? {
        levels.lastIndex { $0.needle == needle || needle.contains($0.needle) }
    }

    /// Drops the levels above `level`, then pushes `needle` with the rows it removed from
    /// `level`'s matches (and their base ranks, when known), unless it is `level`'s needle.
    mutating func replace(above level: Int, with needle: FoldedText, removed: [ObjectID], ranks: [Int32]?) {
        levels.removeSubrange((level + 1)...)
        if levels[level].needle != needle {
            levels.append(Level(needle: needle, removed: removed, removedRanks: ranks))
        }
    }
}

@available(*, unavailable)
extension RefinementStack: Sendable {}
