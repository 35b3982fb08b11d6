import FetchedResultsTesting
import Foundation

/// The simulator most tests use: sections named by strings, rows by integers, contents by
/// strings (`"r<id>"`, or `"r<id>*"` once changed).
typealias Table = ListSimulator<String, Int, String>

/// A state from `(section id, row ids)` pairs; rows listed in `changed` show changed content.
func state(_ sections: (String, [Int])..., changed: Set<Int> = []) -> [Table.Section] {
    sections.map { id, rows in
        Table.Section(id: id, rows: rows.map { Table.Row(id: $0, content: changed.contains($0) ? "r\($0)*" : "r\($0)") })
    }
}

/// `section.row` as an index path.
func ip(_ section: Int, _ row: Int) -> IndexPath {
    IndexPath(row: row, section: section)
}

/// A row move between two index paths.
func move(_ from: IndexPath, _ to: IndexPath) -> ListChanges.RowMove {
    ListChanges.RowMove(from: from, to: to)
}
