import Foundation

/// The objects of one entity in one graph, by serial: a slot holds a strong reference, or
/// nothing once the object is deleted (even pending) or rolled back. Serials are never
/// reused, so the table only grows.
///
/// A class over a `malloc` buffer rather than an `Array`: a bulk insert appends a million
/// objects, and an array would check its uniqueness on every append and copy itself each
/// time it doubles, while `realloc` extends a large block in place where it can.
///
/// **Invariant (upheld by this class alone):** slots `0..<count` are initialized; a non-zero
/// slot is the address of an object retained once by the table, released when the slot is
/// overwritten or the table goes away. So a handle from ``unretained(at:)`` is valid until
/// that slot is next written (a delete or rollback of the object) — the graph, which owns
/// the table, never writes a slot while such a handle is in use.
internal final class _ObjectTable: Sequence {
    /// Slot `i` holds the address of the object with serial `i`, retained once by the table,
    /// or 0. `count` of `capacity` slots are initialized.
    private var slots: UnsafeMutablePointer<UInt>?
    /// The number of serials issued.
    private(set) var count = 0
    private var capacity = 0

    init() {}

    deinit {
        for position in 0..<count {
            if let object = unretained(at: position) { object.release() }
        }
        free(slots)
    }

    /// The object with a serial, unretained (the table keeps it), or `nil`.
    ///
    /// - Parameter serial: A serial below ``count``.
    @inline(__always)
    func unretained(at serial: Int) -> _Unretained<GraphObject>? {
        assert(serial >= 0 && serial < count, "internal inconsistency: serial \(serial) out of the table")
        guard let pointer = UnsafeRawPointer(bitPattern: slots.unsafelyUnwrapped[serial]) else { return nil }
        return _Unretained(Unmanaged.fromOpaque(pointer))
    }

    /// The address of the object with a serial, for a cache hint: `nil` when its slot is
    /// empty. Never to be dereferenced.
    ///
    /// - Parameter serial: A serial below ``count``.
    @inline(__always)
    func address(at serial: Int) -> UnsafeRawPointer? {
        assert(serial >= 0 && serial < count, "internal inconsistency: serial \(serial) out of the table")
        return UnsafeRawPointer(bitPattern: slots.unsafelyUnwrapped[serial])
    }

    /// The object with a serial, or `nil` once it is deleted or rolled back.
    subscript(serial: Int) -> GraphObject? {
        get { unretained(at: serial)?.object }
        set {
            require(serial >= 0 && serial < count, "internal inconsistency: serial \(serial) out of the table")
            let old = unretained(at: serial)
            slots.unsafelyUnwrapped[serial] = newValue.map { UInt(bitPattern: Unmanaged.passUnretained($0).retain().toOpaque()) } ?? 0
            old?.release()
        }
    }

    /// Adds an object with the next serial.
    ///
    /// - Complexity: O(1) amortized.
    @inline(__always)
    func append(_ object: GraphObject) {
        if _slowPath(count == capacity) { grow() }
        slots.unsafelyUnwrapped[count] = UInt(bitPattern: Unmanaged.passUnretained(object).retain().toOpaque())
        count += 1
    }

    /// Issues the next serial with no object in its slot (an object deleted before a store
    /// saved the graph).
    ///
    /// - Complexity: O(1) amortized.
    func appendEmpty() {
        if _slowPath(count == capacity) { grow() }
        slots.unsafelyUnwrapped[count] = 0
        count += 1
    }

    @inline(never)
    private func grow() {
        capacity = Swift.max(64, capacity * 2)
        let bytes = capacity * MemoryLayout<UInt>.stride
        guard let raw = realloc(slots, bytes) else { fatalError("out of memory: \(bytes) bytes for an object table") }
        slots = raw.bindMemory(to: UInt.self, capacity: capacity)
    }

    /// The slots of a range of serials, in order.
    subscript(serials: Range<Int>) -> [GraphObject?] {
        serials.map { self[$0] }
    }

    /// Iterates every slot in serial order (`nil` for the deleted or rolled back).
    struct Iterator: IteratorProtocol {
        let table: _ObjectTable
        var serial = 0

        mutating func next() -> GraphObject?? {
            guard serial < table.count else { return nil }
            defer { serial += 1 }
            return .some(table[serial])
        }
    }

    func makeIterator() -> Iterator { Iterator(table: self) }

    var underestimatedCount: Int { count }
}

@available(*, unavailable, message: "an object table is confined to its graph's isolation domain")
extension _ObjectTable: Sendable {}
