import Foundation
import ObjectGraph

/// What each total read of every row an engine evaluated, by the row object's entity serial:
/// one flat column per kind of input, so a fetch writes each row's inputs where they belong
/// and a section's sum is a tight loop over a column.
///
/// A class: a search reads its base's, which is current with each commit before the search
/// hears of it.
final class TotalInputTable {
    let layout: TotalsLayout
    /// The inputs, moved out while a fetch fills them (``takeColumns(reservingSerials:)``).
    var columns: TotalColumns
    /// The inputs the last commit replaced, by object: what a search over the owning engine
    /// takes out of its totals for those rows (the table holds the new ones already). Kept
    /// only once a search reads the table (``isShared``).
    var replaced: [ObjectID: [TotalInput]] = [:]
    /// Whether another engine (a search) reads this table, and so needs ``replaced``.
    var isShared = false

    init(layout: TotalsLayout, readers: [TotalReader]) {
        self.layout = layout
        columns = TotalColumns(layout: layout, keepsTexts: readers.contains { if case .folded = $0 { true } else { false } })
    }

    /// Empties the columns and hands them over to be filled, with room for `serials` rows;
    /// the caller gives them back by assigning ``columns``.
    ///
    /// - Complexity: O(c) for c serials times the columns.
    func takeColumns(reservingSerials serials: Int) -> TotalColumns {
        var taken = TotalColumns(layout: layout, keepsTexts: columns.keepsTexts)
        columns = taken
        taken.makeRoom(forSerial: serials - 1)
        return taken
    }

    /// The inputs last stored for the object numbered `serial`, one per total (those of no
    /// row when none were).
    ///
    /// - Complexity: O(t) for t totals.
    func row(_ serial: Int) -> [TotalInput] {
        let columns = columns
        let stored = serial < columns.capacity
        return layout.kinds.indices.map { position in
            let slot = layout.slots[position]
            switch layout.kinds[position] {
            case .count: return .none
            case .countWhere: return .flag(stored && columns.flags[serial * columns.flagStride + slot])
            case .integerSum: return .integer(stored ? columns.integers[serial * columns.integerStride + slot] : 0)
            case .doubleSum: return .double(stored ? columns.doubles[serial * columns.doubleStride + slot] : 0)
            case .decimalSum: return .decimal(stored ? columns.decimals[serial * columns.decimalStride + slot] : 0)
            case .minimum, .maximum:
                guard stored else { return .key(.null, text: nil) }
                let place = serial * columns.keyStride + slot
                return .key(columns.keys[place], text: columns.keepsTexts ? columns.texts[place] : nil)
            }
        }
    }

    /// Stores a row's inputs, one per total.
    ///
    /// - Complexity: O(t) for t totals, amortized.
    func store(_ row: [TotalInput], serial: Int) {
        columns.makeRoom(forSerial: serial)
        for (position, input) in row.enumerated() {
            let slot = layout.slots[position]
            switch input {
            case .none: break
            case .flag(let value): columns.flags[serial * columns.flagStride + slot] = value
            case .integer(let value): columns.integers[serial * columns.integerStride + slot] = value
            case .double(let value): columns.doubles[serial * columns.doubleStride + slot] = value
            case .decimal(let value): columns.decimals[serial * columns.decimalStride + slot] = value
            case .key(let key, let text):
                let place = serial * columns.keyStride + slot
                columns.keys[place] = key
                if columns.keepsTexts { columns.texts[place] = text }
            }
        }
    }
}

/// Every row's inputs: per kind of input, one flat array holding each row's inputs of that
/// kind in turn (row `serial`'s input of slot `s` is at `serial * stride + s`).
struct TotalColumns {
    /// The number of serials every column has room for.
    private(set) var capacity = 0
    let flagStride: Int
    let integerStride: Int
    let doubleStride: Int
    let decimalStride: Int
    let keyStride: Int
    /// Whether a minimum or maximum compares strings folded, and so keeps each row's string.
    let keepsTexts: Bool
    /// Whether each row matches, per count (a plain count's place stays `false`).
    var flags: [Bool] = []
    var integers: [Int128] = []
    var doubles: [Double] = []
    var decimals: [Decimal] = []
    /// The key each minimum or maximum orders rows by (``SortValue/null`` for none).
    var keys: [SortValue] = []
    /// For a string compared folded, the string itself, beside its key (when ``keepsTexts``).
    var texts: [String?] = []

    init(layout: TotalsLayout, keepsTexts: Bool) {
        flagStride = layout.countSlots
        integerStride = layout.integerSlots
        doubleStride = layout.doubleSlots
        decimalStride = layout.decimalSlots
        keyStride = layout.extremeKinds.count
        self.keepsTexts = keepsTexts
    }

    /// Grows every column so that `serial` has a place (initially the inputs of no row).
    ///
    /// - Complexity: O(1) when there is room, amortized O(1) otherwise.
    @inline(__always)
    mutating func makeRoom(forSerial serial: Int) {
        guard serial >= capacity else { return }
        grow(to: max(serial + 1, capacity * 2, 64))
    }

    private mutating func grow(to newCapacity: Int) {
        let extra = newCapacity - capacity
        flags.append(contentsOf: repeatElement(false, count: extra * flagStride))
        integers.append(contentsOf: repeatElement(0, count: extra * integerStride))
        doubles.append(contentsOf: repeatElement(0, count: extra * doubleStride))
        decimals.append(contentsOf: repeatElement(0, count: extra * decimalStride))
        keys.append(contentsOf: repeatElement(.null, count: extra * keyStride))
        if keepsTexts { texts.append(contentsOf: repeatElement(nil, count: extra * keyStride)) }
        capacity = newCapacity
    }
}

/// A request's totals' readers, grouped by the kind of input they read, each beside its
/// slot: a fetch runs each group in a plain loop and writes straight into the columns.
struct TotalColumnReaders {
    private var flagSlots: [Int] = []
    private var flags: [(GraphObject) -> Bool] = []
    private var integerSlots: [Int] = []
    private var integers: [(GraphObject) -> Int128] = []
    private var doubleSlots: [Int] = []
    private var doubles: [(GraphObject) -> Double] = []
    private var decimalSlots: [Int] = []
    private var decimals: [(GraphObject) -> Decimal] = []
    private var keySlots: [Int] = []
    private var keys: [(GraphObject) -> SortValue] = []
    private var folded: [(slot: Int, read: (GraphObject) -> String, comparison: StringComparison)] = []
    /// Whether there is no reader (only plain counts, or no total).
    let isEmpty: Bool

    init(_ readers: [TotalReader], layout: TotalsLayout) {
        for (position, reader) in readers.enumerated() {
            let slot = layout.slots[position]
            switch reader {
            case .none: break
            case .flag(let read): (flagSlots, flags) = (flagSlots + [slot], flags + [read])
            case .integer(let read): (integerSlots, integers) = (integerSlots + [slot], integers + [read])
            case .double(let read): (doubleSlots, doubles) = (doubleSlots + [slot], doubles + [read])
            case .decimal(let read): (decimalSlots, decimals) = (decimalSlots + [slot], decimals + [read])
            case .key(let read): (keySlots, keys) = (keySlots + [slot], keys + [read])
            case .folded(let read, let comparison): folded.append((slot, read, comparison))
            }
        }
        isEmpty = readers.allSatisfy { if case .none = $0 { true } else { false } }
    }

    /// Reads a row's inputs straight into `columns`.
    ///
    /// - Complexity: O(t) for t totals, plus their reads.
    @inline(__always)
    func read(_ object: GraphObject, serial: Int, into columns: inout TotalColumns) {
        columns.makeRoom(forSerial: serial)
        // Checked first: passing a column `inout` makes it unique even for no reader.
        if !integers.isEmpty { Self.run(integers, at: integerSlots, on: object, into: &columns.integers, row: serial * columns.integerStride) }
        if !keys.isEmpty { Self.run(keys, at: keySlots, on: object, into: &columns.keys, row: serial * columns.keyStride) }
        if !flags.isEmpty { Self.run(flags, at: flagSlots, on: object, into: &columns.flags, row: serial * columns.flagStride) }
        if !doubles.isEmpty { Self.run(doubles, at: doubleSlots, on: object, into: &columns.doubles, row: serial * columns.doubleStride) }
        if !decimals.isEmpty { Self.run(decimals, at: decimalSlots, on: object, into: &columns.decimals, row: serial * columns.decimalStride) }
        for reader in folded {
            let text = reader.read(object)
            columns.keys[serial * columns.keyStride + reader.slot] = .string(reader.comparison.fold(text))
            columns.texts[serial * columns.keyStride + reader.slot] = text
        }
    }

    /// Runs each reader of one kind on `object` and stores what it read at its slot of the
    /// row that starts at `row` in `column`: a plain integer range, and each closure called
    /// where the array holds it.
    @inline(__always)
    private static func run<Value>(
        _ readers: [(GraphObject) -> Value], at slots: [Int], on object: GraphObject, into column: inout [Value], row: Int
    ) {
        var reader = 0
        while reader < readers.count {
            column[row + slots[reader]] = readers[reader](object)
            reader += 1
        }
    }

    /// Runs every reader on `object` and drops what they read: for a row whose inputs are not
    /// kept (a search's, or one the predicate leaves out), so that its reads are recorded.
    ///
    /// - Complexity: O(t) for t totals, plus their reads.
    func readForDependencies(_ object: GraphObject) {
        for read in flags { _ = read(object) }
        for read in integers { _ = read(object) }
        for read in doubles { _ = read(object) }
        for read in decimals { _ = read(object) }
        for read in keys { _ = read(object) }
        for reader in folded { _ = reader.read(object) }
    }
}

/// Reads rows' inputs for the commit path, one row at a time.
extension [TotalReader] {
    /// The inputs of `object` for every total.
    ///
    /// - Complexity: O(t) for t totals, plus their reads.
    func inputs(of object: GraphObject) -> [TotalInput] {
        map { reader in
            switch reader {
            case .none: .none
            case .flag(let read): .flag(read(object))
            case .integer(let read): .integer(read(object))
            case .double(let read): .double(read(object))
            case .decimal(let read): .decimal(read(object))
            case .key(let read): .key(read(object), text: nil)
            case .folded(let read, let comparison):
                { text in .key(.string(comparison.fold(text)), text: text) }(read(object))
            }
        }
    }
}
