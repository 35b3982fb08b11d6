import Foundation
import ListUpdates

/// A row identified by a UUID, as an app's model rows usually are.
private struct DiffRow: Identifiable, Hashable {
    var id: UUID
}

/// A section of rows identified by an integer.
private struct DiffSection: Identifiable {
    var id: Int
    var rows: [DiffRow]
}

/// The diff rows: the staged sectioned diff (`ListChanges.stagedDifference`, identifiers
/// hashed once, moves minimized, stages valid for a list view) against the standard library's
/// `CollectionDifference` with `inferringMoves()` on the same data, in the same run; and the
/// 100k row split into its unstaged difference and its staging, each against the cheapest
/// thing that part could be compared with. `diff.sections.100k.keeping` times the stages that
/// carry their data (`ListChanges.stagedDifferenceKeepingSections`) against the final-state
/// stages on the 100k sectioned input.
func diffBenchmarks() -> [Benchmark] {
    [
        tinyRow("diff.tiny.10", moved: true),
        tinyRow("diff.tiny.unchanged", moved: false),
        flatRow("diff.uuid.5k", count: 5_000, deleted: 1_000, inserted: 1_000, shuffled: 200, runs: 7),
        flatRow("diff.uuid.100k", count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000, runs: 3),
        // The 100k row in two parts, for readers who want to know where its time goes.
        Benchmark(
            "diff.uuid.100k.difference",
            baseline: "a [UUID: Int] of the old rows, looked up by every new row",
            runs: 5
        ) {
            let (old, new) = flatData(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000)
            return .init(
                subject: { stopwatch in
                    // The general changes, unstaged: matching, moves and index paths.
                    _ = stopwatch.measure { try! ListChanges.difference(from: old, to: new) }
                },
                baseline: { stopwatch in
                    _ = stopwatch.measure {
                        var positions = [UUID: Int](minimumCapacity: old.count)
                        for (position, row) in old.enumerated() { positions[row.id] = position }
                        return new.reduce(0) { $0 &+ (positions[$1.id] ?? 0) }
                    }
                }
            )
        },
        Benchmark(
            "diff.uuid.100k.staging",
            baseline: "ListChanges.normalized() (every field sorted) of the same changes",
            runs: 5
        ) {
            let (old, new) = flatData(count: 100_000, deleted: 10_000, inserted: 10_000, shuffled: 2_000)
            let changes = try! ListChanges.difference(from: old, to: new)
            return .init(
                subject: { stopwatch in _ = stopwatch.measure { changes.staged() } },
                baseline: { stopwatch in _ = stopwatch.measure { changes.normalized() } }
            )
        },
        Benchmark(
            "diff.sections.100k",
            baseline: "CollectionDifference.inferringMoves() on the flattened rows",
            runs: 5
        ) {
            let (old, new) = sectionsData()
            let oldFlat = old.flatMap(\.rows)
            let newFlat = new.flatMap(\.rows)
            return .init(
                subject: { stopwatch in
                    _ = stopwatch.measure {
                        // The data is built without duplicate identifiers, so this cannot throw.
                        try! ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
                    }
                },
                baseline: { stopwatch in
                    _ = stopwatch.measure { newFlat.difference(from: oldFlat).inferringMoves() }
                }
            )
        },
        // The stages with their data on the same input, against the final-state stages.
        Benchmark(
            "diff.sections.100k.keeping",
            baseline: "ListChanges.stagedDifference (final-state stages) of the same sections",
            runs: 5
        ) {
            let (old, new) = sectionsData()
            return .init(
                subject: { stopwatch in
                    _ = stopwatch.measure { try! ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows) }
                },
                baseline: { stopwatch in
                    _ = stopwatch.measure { try! ListChanges.stagedDifference(from: old, to: new, rows: \.rows) }
                }
            )
        },
        Benchmark(
            "diff.sections.random",
            baseline: "the unstaged difference of the same cases",
            runs: 5
        ) {
            let cases = (0..<5_000).map { randomSectionedCase(seed: UInt64($0)) }
            var recreatedSections = 0
            var recreatedRows = 0
            var stageCount = 0
            for (old, new) in cases {
                let stages = try! ListChanges.stagedDifference(from: old, to: new, rows: \.rows)
                stageCount += stages.count
                let (sections, rows) = recreated(stages, from: old, to: new)
                recreatedSections += sections
                recreatedRows += rows
            }
            // The same cases with stages that carry their data and keep every section.
            var keepingRecreatedSections = 0
            var keepingRecreatedRows = 0
            var keepingStageCount = 0
            for (old, new) in cases {
                let stages = try! ListChanges.stagedDifferenceKeepingSections(from: old, to: new, rows: \.rows)
                keepingStageCount += stages.count
                let (sections, rows) = recreated(stages, from: old, to: new)
                keepingRecreatedSections += sections
                keepingRecreatedRows += rows
            }
            return .init(
                subject: { stopwatch in
                    _ = stopwatch.measure {
                        var total = 0
                        for (old, new) in cases { total &+= (try! ListChanges.stagedDifference(from: old, to: new, rows: \.rows)).count }
                        return total
                    }
                },
                baseline: { stopwatch in
                    _ = stopwatch.measure {
                        var total = 0
                        for (old, new) in cases { total &+= (try! ListChanges.difference(from: old, to: new, rows: \.rows)).count }
                        return total
                    }
                },
                extra: [
                    "recreated_sections": recreatedSections, "recreated_rows": recreatedRows, "stages": stageCount,
                    "keeping_recreated_sections": keepingRecreatedSections, "keeping_recreated_rows": keepingRecreatedRows,
                    "keeping_stages": keepingStageCount,
                ]
            )
        },
    ]
}

/// A random sectioned case: up to 6 sections of up to 8 rows; sections inserted, deleted and
/// moved; rows inserted, deleted, updated and moved within and across sections.
private func randomSectionedCase(seed: UInt64) -> (old: [DiffSection], new: [DiffSection]) {
    var rng = BenchmarkGenerator(seed: seed)
    func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    var nextSection = 0
    let old = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
        nextSection += 1
        return DiffSection(id: nextSection, rows: (0..<Int.random(in: 0...8, using: &rng)).map { _ in DiffRow(id: UUID()) })
    }
    var new = old.filter { _ in !chance(0.15) }
    for _ in 0..<Int.random(in: 0...1, using: &rng) {
        nextSection += 1
        new.insert(DiffSection(id: nextSection, rows: [DiffRow(id: UUID())]), at: Int.random(in: 0...new.count, using: &rng))
    }
    if new.count > 1 && chance(0.5) { new.swapAt(0, Int.random(in: 1..<new.count, using: &rng)) }
    guard !new.isEmpty else { return (old, new) }
    for _ in 0..<Int.random(in: 0...4, using: &rng) {
        let from = Int.random(in: new.indices, using: &rng)
        guard !new[from].rows.isEmpty else { continue }
        let row = new[from].rows.remove(at: Int.random(in: new[from].rows.indices, using: &rng))
        let to = Int.random(in: new.indices, using: &rng)
        if chance(0.3) { continue }  // deleted
        new[to].rows.insert(row, at: Int.random(in: 0...new[to].rows.count, using: &rng))
    }
    for _ in 0..<Int.random(in: 0...2, using: &rng) {
        let to = Int.random(in: new.indices, using: &rng)
        new[to].rows.insert(DiffRow(id: UUID()), at: Int.random(in: 0...new[to].rows.count, using: &rng))
    }
    return (old, new)
}

/// The sections in both states that stages delete and insert again, and the rows in both
/// states that they delete and insert again (in recreated sections or on their own).
private func recreated(_ stages: [ListChanges], from old: [DiffSection], to new: [DiffSection]) -> (sections: Int, rows: Int) {
    let newIDs = Set(new.map(\.id))
    let oldIDs = Set(old.map(\.id))
    let newRows = Set(new.flatMap(\.rows).map(\.id))
    var sections = 0
    var rows = 0
    // Positions are replayed stage by stage: deletes name the state the stage starts from.
    var state = old
    for stage in stages {
        var deletedIDs = Set<UUID>()
        for section in stage.deletedSections {
            let id = state[section].id
            if newIDs.contains(id) && oldIDs.contains(id) {
                sections += 1
                rows += state[section].rows.filter { newRows.contains($0.id) }.count
            }
        }
        for path in stage.deletedRows where newRows.contains(state[path.section].rows[path.row].id) {
            deletedIDs.insert(state[path.section].rows[path.row].id)
        }
        rows += deletedIDs.count
        state = intermediate(after: stage, from: state, toward: new)
    }
    return (sections, rows)
}

/// The sections a stage leaves: the final sections' identifiers in order, and in each the
/// rows the stage leaves (the rows of `new` once their section is settled).
private func intermediate(after stage: ListChanges, from state: [DiffSection], toward new: [DiffSection]) -> [DiffSection] {
    // Every stage ends with the final sections and counts; only a moved section's rows may
    // still be the old ones, which later stages only delete from by their old positions.
    var result = new
    for move in stage.movedSections where move.from < state.count && state[move.from].rows.count == new[move.to].rows.count {
        result[move.to].rows = state[move.from].rows
    }
    return result
}

/// The sections and rows in both states that stages with their data delete and insert
/// again, counted as `recreated(_:from:to:)` counts them, replaying each stage from the data
/// of the one before.
private func recreated(_ stages: [ListStage<[DiffSection]>], from old: [DiffSection], to new: [DiffSection]) -> (sections: Int, rows: Int) {
    let newIDs = Set(new.map(\.id))
    let oldIDs = Set(old.map(\.id))
    let newRows = Set(new.flatMap(\.rows).map(\.id))
    var sections = 0
    var rows = 0
    var state = old
    for stage in stages {
        for section in stage.changes.deletedSections where newIDs.contains(state[section].id) && oldIDs.contains(state[section].id) {
            sections += 1
            rows += state[section].rows.filter { newRows.contains($0.id) }.count
        }
        rows += Set(stage.changes.deletedRows.map { state[$0.section].rows[$0.row].id }).intersection(newRows).count
        state = stage.data
    }
    return (sections, rows)
}

/// 100,000 rows in 100 sections of 1,000, and the same with 1% of the rows moved to a random
/// position in another section.
private func sectionsData() -> (old: [DiffSection], new: [DiffSection]) {
    var rng = BenchmarkGenerator(seed: 100)
    let old = (0..<100).map { section in
        DiffSection(id: section, rows: (0..<1_000).map { _ in DiffRow(id: UUID()) })
    }
    var new = old
    // 1% of the rows leave their section for a random position in another one.
    var moving: [DiffRow] = []
    for _ in 0..<1_000 {
        let section = Int.random(in: new.indices, using: &rng)
        moving.append(new[section].rows.remove(at: Int.random(in: new[section].rows.indices, using: &rng)))
    }
    for row in moving {
        let section = Int.random(in: new.indices, using: &rng)
        new[section].rows.insert(row, at: Int.random(in: 0...new[section].rows.count, using: &rng))
    }
    return (old, new)
}

/// How many calls a tiny row times per run: one call takes microseconds.
private let tinyCalls = 10_000

/// A staged diff of 10 rows (one moved, or none), called `tinyCalls` times per run, against a
/// straightforward O(n²) diff of the same rows: for each new row, a linear search of the old
/// rows, then the moves out of order. The per-call overhead a view model pays on every
/// keystroke or tick.
private func tinyRow(_ name: String, moved: Bool) -> Benchmark {
    Benchmark(name, baseline: "an O(n²) diff of the 10 rows; times are for \(tinyCalls) calls", runs: 9) {
        let old = (0..<10).map { _ in DiffRow(id: UUID()) }
        var new = old
        if moved { new.insert(new.remove(at: 2), at: 7) }
        return .init(
            subject: { stopwatch in
                _ = stopwatch.measure {
                    var total = 0
                    for _ in 0..<tinyCalls {
                        let stages: [ListChanges] = try! ListChanges.stagedDifference(from: old, to: new)
                        total &+= stages.count
                    }
                    return total
                }
            },
            baseline: { stopwatch in
                _ = stopwatch.measure {
                    var total = 0
                    for _ in 0..<tinyCalls { total &+= quadraticDiff(old, new).count }
                    return total
                }
            }
        )
    }
}

/// The simplest diff of two short lists: deletes, inserts, and moves of the matched rows
/// whose old position is below an earlier matched row's.
@inline(never)
private func quadraticDiff(_ old: [DiffRow], _ new: [DiffRow]) -> ListChanges {
    var changes = ListChanges()
    var oldMatched = [Bool](repeating: false, count: old.count)
    var highest = -1
    for (position, row) in new.enumerated() {
        guard let source = old.firstIndex(where: { $0.id == row.id }) else {
            changes.insertedRows.append(IndexPath(row: position, section: 0))
            continue
        }
        oldMatched[source] = true
        if source < highest {
            changes.movedRows.append(.init(from: IndexPath(row: source, section: 0), to: IndexPath(row: position, section: 0)))
        }
        highest = max(highest, source)
    }
    for (position, matched) in oldMatched.enumerated() where !matched {
        changes.deletedRows.append(IndexPath(row: position, section: 0))
    }
    return changes
}

/// The data of a flat row: `count` UUIDs, then `deleted` removed, `inserted` added and
/// `shuffled` moved to random positions.
private func flatData(count: Int, deleted: Int, inserted: Int, shuffled: Int) -> (old: [DiffRow], new: [DiffRow]) {
    var rng = BenchmarkGenerator(seed: UInt64(count))
    let old = (0..<count).map { _ in DiffRow(id: UUID()) }
    var new = old
    for _ in 0..<deleted { new.remove(at: Int.random(in: new.indices, using: &rng)) }
    for _ in 0..<inserted { new.insert(DiffRow(id: UUID()), at: Int.random(in: 0...new.count, using: &rng)) }
    for _ in 0..<shuffled {
        let row = new.remove(at: Int.random(in: new.indices, using: &rng))
        new.insert(row, at: Int.random(in: 0...new.count, using: &rng))
    }
    return (old, new)
}

/// A flat row on the data of `flatData(count:deleted:inserted:shuffled:)`.
private func flatRow(_ name: String, count: Int, deleted: Int, inserted: Int, shuffled: Int, runs: Int) -> Benchmark {
    Benchmark(name, baseline: "CollectionDifference.inferringMoves()", runs: runs) {
        let (old, new) = flatData(count: count, deleted: deleted, inserted: inserted, shuffled: shuffled)
        return .init(
            subject: { stopwatch in
                // The data is built without duplicate identifiers, so this cannot throw.
                _ = stopwatch.measure { try! ListChanges.stagedDifference(from: old, to: new) }
            },
            baseline: { stopwatch in
                _ = stopwatch.measure { new.difference(from: old).inferringMoves() }
            }
        )
    }
}

/// SplitMix64, so that every run builds the same edits.
private struct BenchmarkGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
