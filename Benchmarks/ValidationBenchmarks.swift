import Foundation
import ListUpdates

/// Rows for the batch-rule validator: checking a large valid batch against its before- and
/// after-counts, compared with `normalized()` of the same changes (the sort and de-duplication
/// that any checker of unordered changes must do at least).
func validationBenchmarks() -> [Benchmark] {
    [
        Benchmark("validation.sections1k", baseline: "normalized() of the same 40k changes") {
            validationBodies(sections: 1_000, rowsPerSection: 100)
        },
        Benchmark("validation.rows1M", baseline: "normalized() of the same 40k changes") {
            validationBodies(sections: 1, rowsPerSection: 1_000_000, changesPerSection: 40_000)
        },
    ]
}

/// A valid batch over `sections` sections of `rowsPerSection` rows: in each block of ten rows,
/// the first is deleted, a row is inserted at the first after-position, the fourth is
/// reloaded and the sixth moves to the section's next block (wrapping around).
private func validationBodies(
    sections: Int,
    rowsPerSection: Int,
    changesPerSection: Int? = nil
) -> Benchmark.Bodies {
    let blocks = (changesPerSection ?? rowsPerSection * 4 / 10) / 4
    precondition(blocks * 10 <= rowsPerSection, "benchmark set-up: too many changes for the rows")
    var changes = ListChanges()
    for section in 0..<sections {
        for block in 0..<blocks {
            let base = block * 10
            changes.deletedRows.append(IndexPath(row: base, section: section))
            changes.insertedRows.append(IndexPath(row: base, section: section))
            changes.reloadedRows.append(IndexPath(row: base + 3, section: section))
            let next = (block + 1) % blocks * 10
            changes.movedRows.append(.init(
                from: IndexPath(row: base + 5, section: section),
                to: IndexPath(row: next + 5, section: section)
            ))
        }
    }
    let counts = Array(repeating: rowsPerSection, count: sections)
    do {
        try changes.validate(beforeRowCounts: counts, afterRowCounts: counts)
    } catch {
        preconditionFailure("benchmark set-up: the batch is invalid: \(error)")
    }
    return .init(
        subject: { stopwatch in
            _ = stopwatch.measure { () -> Bool in
                do {
                    try changes.validate(beforeRowCounts: counts, afterRowCounts: counts)
                    return true
                } catch {
                    return false
                }
            }
        },
        baseline: { stopwatch in
            _ = stopwatch.measure { changes.normalized() }
        }
    )
}
