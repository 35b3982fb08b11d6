import ObjectGraph

extension OrderedResultsEngine {
    /// New order labels for the members that arrived or moved, placed between their stable
    /// neighbours (the members that kept their relative order, whose labels are still
    /// increasing along `list`).
    ///
    /// Each maximal run of unstable members gets labels spread evenly over the gap between
    /// the stable members around it. When the gap is too small, the window around the run
    /// doubles (outwards to stable members) until its labels are sparse enough, and every
    /// member inside is spread out again; at the ends of the list labels grow by
    /// ``labelSpacing``. A label beyond ``labelLimit`` spreads out the whole list.
    ///
    /// - Parameters:
    ///   - unstable: The members that need a label, by position in `list`.
    ///   - list: The relationship after the commit.
    /// - Returns: The new label of every member whose label changes.
    /// - Complexity: O(k) for k unstable members, plus the windows spread out (amortized
    ///   O(log n) members per insertion into one gap).
    func relabel(_ unstable: [ObjectID: Int], in list: [Member]) -> [ObjectID: Int64] {
        var assigned: [ObjectID: Int64] = [:]
        var covered: Set<Int> = []
        func isUnstable(_ position: Int) -> Bool { unstable[list[position].objectID] != nil }
        func label(at position: Int) -> Int64 {
            let id = list[position].objectID
            guard let label = assigned[id] ?? labels[id] else {
                requirementFailure("internal inconsistency: stable member \(id) has no order label")
            }
            return label
        }
        /// Spreads labels over the open range of positions `low + 1 ..< high` (either may be
        /// an end of the list), between the labels there; `false` when they do not fit with
        /// at least `minimumStep` between neighbours.
        func spread(_ low: Int, _ high: Int, minimumStep: Int64) -> Bool {
            let count = high - low - 1
            guard count > 0 else { return true }
            let lowLabel = low >= 0 ? label(at: low) : nil
            let highLabel = high < list.count ? label(at: high) : nil
            var first: Int64
            var step: Int64
            switch (lowLabel, highLabel) {
            case (nil, nil):
                first = 0
                step = Self.labelSpacing
            case (let lowLabel?, nil):
                first = lowLabel + Self.labelSpacing
                step = Self.labelSpacing
            case (nil, let highLabel?):
                first = highLabel - Int64(count) * Self.labelSpacing
                step = Self.labelSpacing
            case (let lowLabel?, let highLabel?):
                step = (highLabel - lowLabel) / Int64(count + 1)
                guard step >= minimumStep else { return false }
                first = lowLabel + step
            }
            let last = first + Int64(count - 1) * step
            if lowLabel == nil || highLabel == nil, first < -Self.labelLimit || last > Self.labelLimit {
                // Labels ran far out at one end: spread the whole list around zero.
                first = -Int64(list.count / 2) * Self.labelSpacing
                step = Self.labelSpacing
                for position in list.indices {
                    assigned[list[position].objectID] = first + Int64(position) * step
                    covered.insert(position)
                }
                return true
            }
            for position in (low + 1)..<high {
                assigned[list[position].objectID] = first + Int64(position - low - 1) * step
                covered.insert(position)
            }
            return true
        }

        for position in unstable.values.sorted() where !covered.contains(position) {
            var low = position - 1
            while low >= 0, isUnstable(low) { low -= 1 }
            var high = position + 1
            while high < list.count, isUnstable(high) { high += 1 }
            if keepsLabels(from: low + 1, to: high, in: list, between: low, high, label: label) {
                for run in (low + 1)..<high { covered.insert(run) }
                continue
            }
            if spread(low, high, minimumStep: 1) { continue }
            // The gap ran out: widen the window to stable members until it is sparse.
            var width = max(high - low - 1, 1)
            while true {
                low = max(-1, low - width)
                while low >= 0, isUnstable(low) { low -= 1 }
                high = min(list.count, high + width)
                while high < list.count, isUnstable(high) { high += 1 }
                if spread(low, high, minimumStep: 4) { break }
                width *= 2
            }
        }
        return assigned
    }

    /// Whether the members of a run all have labels already, increasing and strictly between
    /// the labels of the stable members around it, so none needs a new one.
    private func keepsLabels(
        from start: Int, to end: Int, in list: [Member], between low: Int, _ high: Int, label: (Int) -> Int64
    ) -> Bool {
        var previous = low >= 0 ? label(low) : Int64.min
        for position in start..<end {
            guard let current = labels[list[position].objectID], current > previous else { return false }
            previous = current
        }
        return high >= list.count || previous < label(high)
    }
}
