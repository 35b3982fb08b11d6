import Foundation

/// A set of list changes whose row positions are packed into integers, `section << 32 | row`:
/// the form staging works in, so that sorting and searching positions costs what it costs for
/// integers. The sectioned diff builds it directly, so a staged diff never converts its rows to
/// index paths and back.
///
/// Fields mean what the fields of ``ListChanges`` with the same names mean, in the same index
/// spaces; their order carries no meaning.
@usableFromInline
struct PackedListChanges {
    @usableFromInline var deletedSections: [Int] = []
    @usableFromInline var insertedSections: [Int] = []
    @usableFromInline var movedSections: [ListChanges.SectionMove] = []
    @usableFromInline var reloadedSections: [Int] = []
    @usableFromInline var deletedRows: [Int] = []
    @usableFromInline var insertedRows: [Int] = []
    @usableFromInline var movedRows: [(from: Int, to: Int)] = []
    @usableFromInline var reloadedRows: [Int] = []
    @usableFromInline var reconfiguredRows: [Int] = []
    /// Section positions after the change, as in ``ListChanges/reconfiguredSections``.
    @usableFromInline var reconfiguredSections: [Int] = []

    @usableFromInline
    init() {}

    /// Packs a set of changes.
    ///
    /// - Precondition: Every index path has exactly two non-negative indexes below 2³¹.
    init(_ changes: ListChanges) {
        deletedSections = changes.deletedSections
        insertedSections = changes.insertedSections
        movedSections = changes.movedSections
        reloadedSections = changes.reloadedSections
        deletedRows = changes.deletedRows.map(Self.pack)
        insertedRows = changes.insertedRows.map(Self.pack)
        movedRows = changes.movedRows.map { (from: Self.pack($0.from), to: Self.pack($0.to)) }
        reloadedRows = changes.reloadedRows.map(Self.pack)
        reconfiguredRows = changes.reconfiguredRows.map(Self.pack)
        reconfiguredSections = changes.reconfiguredSections
    }

    /// The same changes with index paths.
    @usableFromInline
    var unpacked: ListChanges {
        ListChanges(
            deletedSections: deletedSections,
            insertedSections: insertedSections,
            movedSections: movedSections,
            reloadedSections: reloadedSections,
            deletedRows: deletedRows.map(Self.indexPath),
            insertedRows: insertedRows.map(Self.indexPath),
            movedRows: movedRows.map { ListChanges.RowMove(from: Self.indexPath($0.from), to: Self.indexPath($0.to)) },
            reloadedRows: reloadedRows.map(Self.indexPath),
            reconfiguredRows: reconfiguredRows.map(Self.indexPath),
            reconfiguredSections: reconfiguredSections
        )
    }

    /// The packed form of a `section.row` index path.
    static func pack(_ path: IndexPath) -> Int {
        require(path.count == 2, "ListChanges: index path \(path) must have exactly two indexes")
        let section = path[0]
        let row = path[1]
        require(
            section >= 0 && row >= 0 && section <= Int(Int32.max) && row <= Int(Int32.max),
            "ListChanges: index path \(path.listDescription) is out of range"
        )
        return section << 32 | row
    }

    /// The packed form of a row's position.
    @inlinable
    static func pack(section: Int, row: Int) -> Int {
        section << 32 | row
    }

    /// The section of a packed position.
    @inlinable
    static func section(of packed: Int) -> Int {
        packed >> 32
    }

    /// The index path of a packed position.
    @inlinable
    static func indexPath(_ packed: Int) -> IndexPath {
        IndexPath(listSection: packed >> 32, row: packed & 0xFFFF_FFFF)
    }
}
