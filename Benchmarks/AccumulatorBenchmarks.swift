import Foundation
import ListUpdates

/// Composing 10,000 row changes spread over 100 batches into one staged batch, against
/// diffing the states before and after from scratch with the sectioned diff, at 100,000 and
/// 1,000,000 rows: composition should cost the same at both sizes, the diff ten times more.
func accumulatorBenchmarks() -> [Benchmark] {
    [
        composeBenchmark(name: "accumulator.compose.10k-changes.100k-rows", rows: 100_000),
        composeBenchmark(name: "accumulator.compose.10k-changes.1m-rows", rows: 1_000_000),
    ]
}

private struct BenchmarkRow {
    var id: Int
    var version: Int
}

private struct BenchmarkSection {
    var id: Int
    var rows: [BenchmarkRow]
}

private func composeBenchmark(name: String, rows: Int) -> Benchmark {
    Benchmark(name, baseline: "sectioned diff of the states before and after, staged", runs: 5) {
        var workload = ComposeWorkload(sections: 100, rowsPerSection: rows / 100, seed: 0xACC0)
        let batches = (0..<100).map { _ in workload.nextBatch(changes: 100) }
        let before = workload.initial
        let after = workload.state
        return .init(
            subject: { stopwatch in
                _ = stopwatch.measure {
                    let accumulator = ChangeAccumulator()
                    for batch in batches { accumulator.add(batch) }
                    return accumulator.pendingChanges.staged()
                }
            },
            baseline: { stopwatch in
                _ = stopwatch.measure {
                    try? ListChanges.difference(
                        from: before, to: after, sectionID: \.id, rows: \.rows, rowID: \.id,
                        rowContentEqual: { $0.version == $1.version }
                    ).staged()
                }
            }
        )
    }
}

/// Random valid batches of row changes (inserts, deletes, moves within and across sections,
/// updates) over a sectioned list, applied to the list as they are made.
private struct ComposeWorkload {
    private(set) var initial: [BenchmarkSection]
    private(set) var state: [BenchmarkSection]
    private var random: UInt64
    private var nextID: Int

    init(sections: Int, rowsPerSection: Int, seed: UInt64) {
        var id = 0
        initial = (0..<sections).map { section in
            BenchmarkSection(id: section, rows: (0..<rowsPerSection).map { _ in
                id += 1
                return BenchmarkRow(id: id, version: 0)
            })
        }
        state = initial
        nextID = id + 1
        random = seed
    }

    private mutating func next(_ bound: Int) -> Int {
        random &+= 0x9E37_79B9_7F4A_7C15
        var z = random
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    /// Distinct random positions in `0..<count`.
    private mutating func positions(_ wanted: Int, in count: Int) -> [Int] {
        precondition(wanted <= count, "the workload asked for more positions than rows")
        var chosen = Set<Int>()
        while chosen.count < wanted { chosen.insert(next(count)) }
        return Array(chosen)
    }

    /// One valid batch of `changes` row changes, applied to `state`.
    mutating func nextBatch(changes: Int) -> ListChanges {
        enum Kind { case insert, delete, move, update }
        var ops: [(kind: Kind, from: Int, to: Int)] = []
        for _ in 0..<changes {
            let kinds: [Kind] = [.insert, .delete, .move, .update]
            ops.append((kinds[next(4)], next(state.count), next(state.count)))
        }
        // Per section: before-positions taken (deletes, updates, move sources) and
        // after-positions taken (inserts, move destinations).
        var removedOrMarked = [Int](repeating: 0, count: state.count)
        var added = [Int](repeating: 0, count: state.count)
        var removed = [Int](repeating: 0, count: state.count)
        for op in ops {
            switch op.kind {
            case .insert:
                added[op.to] += 1
            case .delete:
                removedOrMarked[op.from] += 1
                removed[op.from] += 1
            case .update:
                removedOrMarked[op.from] += 1
            case .move:
                removedOrMarked[op.from] += 1
                removed[op.from] += 1
                added[op.to] += 1
            }
        }
        var beforePositions = state.indices.map { positions(removedOrMarked[$0], in: state[$0].rows.count)[...] }
        var afterPositions = state.indices.map {
            positions(added[$0], in: state[$0].rows.count - removed[$0] + added[$0])[...]
        }
        var batch = ListChanges()
        for op in ops {
            switch op.kind {
            case .insert:
                batch.insertedRows.append(IndexPath(row: afterPositions[op.to].popFirst()!, section: op.to))
            case .delete:
                batch.deletedRows.append(IndexPath(row: beforePositions[op.from].popFirst()!, section: op.from))
            case .update:
                batch.reconfiguredRows.append(IndexPath(row: beforePositions[op.from].popFirst()!, section: op.from))
            case .move:
                batch.movedRows.append(.init(
                    from: IndexPath(row: beforePositions[op.from].popFirst()!, section: op.from),
                    to: IndexPath(row: afterPositions[op.to].popFirst()!, section: op.to)))
            }
        }
        apply(batch)
        return batch
    }

    /// Applies a batch of row changes (no section changes) to `state`.
    private mutating func apply(_ batch: ListChanges) {
        var gone = [Set<Int>](repeating: [], count: state.count)
        for path in batch.deletedRows { gone[path.section].insert(path.row) }
        for path in batch.reconfiguredRows { state[path.section].rows[path.row].version += 1 }
        var placed = [[Int: BenchmarkRow]](repeating: [:], count: state.count)
        for move in batch.movedRows {
            gone[move.from.section].insert(move.from.row)
            placed[move.to.section][move.to.row] = state[move.from.section].rows[move.from.row]
        }
        for path in batch.insertedRows {
            placed[path.section][path.row] = BenchmarkRow(id: nextID, version: 0)
            nextID += 1
        }
        for section in state.indices where !gone[section].isEmpty || !placed[section].isEmpty {
            var kept = state[section].rows.enumerated().lazy.filter { !gone[section].contains($0.offset) }
                .map(\.element).makeIterator()
            let count = state[section].rows.count - gone[section].count + placed[section].count
            var rows: [BenchmarkRow] = []
            rows.reserveCapacity(count)
            for position in 0..<count {
                if let row = placed[section][position] { rows.append(row) } else { rows.append(kept.next()!) }
            }
            state[section].rows = rows
        }
    }
}
