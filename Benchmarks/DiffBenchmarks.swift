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
/// thing that part could be compared with.
func diffBenchmarks() -> [Benchmark] {
    [
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
    ]
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
