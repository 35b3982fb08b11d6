import Foundation
import ListUpdates
import Testing

@Suite("ListChanges")
struct ListChangesTests {
    @Test func equalityIgnoresOrderAndDuplicates() {
        let a = ListChanges(deletedRows: [IndexPath(row: 2, section: 0), IndexPath(row: 1, section: 0)])
        let b = ListChanges(deletedRows: [IndexPath(row: 1, section: 0), IndexPath(row: 2, section: 0)])
        #expect(a == b)
        #expect(a != ListChanges(deletedRows: [IndexPath(row: 1, section: 0)]))
        #expect(a.count == 2)
        #expect(!a.isEmpty)
        #expect(ListChanges().isEmpty)
    }

    @Test func indexPathAccessors() {
        var path = IndexPath(row: 3, section: 1)
        #expect(path.section == 1)
        #expect(path.row == 3)
        #expect(path.item == 3)
        path.row = 4
        #expect(path == IndexPath(item: 4, section: 1))
    }

    @Test func descriptionIsReadable() {
        let changes = ListChanges(
            insertedSections: [2],
            movedRows: [.init(from: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 1))]
        )
        #expect(changes.description == "ListChanges(+s[2] →[0.0→1.1])")
    }
}
