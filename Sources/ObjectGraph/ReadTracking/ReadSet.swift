/// One read of one property of one object.
public struct PropertyRead: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The object read.
    public var objectID: ObjectID
    /// The property read, an index in the object's entity.
    public var property: PropertyIndex

    /// Makes a read.
    ///
    /// - Parameters:
    ///   - objectID: The object.
    ///   - property: The property's index in the object's entity.
    /// - Complexity: O(1).
    @inlinable
    public init(objectID: ObjectID, property: PropertyIndex) {
        self.objectID = objectID
        self.property = property
    }

    /// Orders by object, then property.
    ///
    /// - Complexity: O(1).
    @inlinable
    public static func < (lhs: PropertyRead, rhs: PropertyRead) -> Bool {
        (lhs.objectID, lhs.property) < (rhs.objectID, rhs.property)
    }

    /// The object and the property's name, such as `Item/p3.name`.
    public var description: String { "\(objectID).\(objectID.entity[property].name)" }
}

/// The exact set of (object, property) pairs a closure read, made by
/// ``ObjectGraph/trackReads(_:)``.
public struct ReadSet: Sendable, Hashable, Sequence, CustomStringConvertible {
    /// The reads, sorted and distinct.
    public let reads: [PropertyRead]

    /// Makes a set from reads in any order, with repeats.
    ///
    /// - Parameter reads: The reads.
    /// - Complexity: O(*n* log *n*).
    public init<Reads: Sequence<PropertyRead>>(_ reads: Reads) {
        var sorted = Array(reads)
        if sorted.count > 1 {
            sorted.sort()
            var kept = 1
            for position in 1..<sorted.count where sorted[position] != sorted[kept - 1] {
                sorted[kept] = sorted[position]
                kept += 1
            }
            sorted.removeLast(sorted.count - kept)
        }
        self.reads = sorted
    }

    /// The number of distinct reads.
    public var count: Int { reads.count }

    /// Whether nothing was read.
    public var isEmpty: Bool { reads.isEmpty }

    /// The objects read.
    public var objectIDs: Set<ObjectID> { Set(reads.map(\.objectID)) }

    /// Whether a property of an object was read.
    ///
    /// - Complexity: O(log *n*).
    public func contains(_ objectID: ObjectID, _ property: PropertyIndex) -> Bool {
        let read = PropertyRead(objectID: objectID, property: property)
        var low = 0, high = reads.count
        while low < high {
            let mid = (low + high) / 2
            if reads[mid] < read { low = mid + 1 } else { high = mid }
        }
        return low < reads.count && reads[low] == read
    }

    /// Whether an object's property with a name was read.
    ///
    /// - Complexity: O(log *n*).
    public func contains(_ objectID: ObjectID, _ name: String) -> Bool {
        objectID.entity.index(of: name).map { contains(objectID, $0) } ?? false
    }

    /// Iterates the reads in order.
    ///
    /// - Complexity: O(1); each step of the iteration is O(1).
    public func makeIterator() -> IndexingIterator<[PropertyRead]> { reads.makeIterator() }

    /// The reads, such as `[Item/p0.name, Item/p0.location]`.
    public var description: String { "[\(reads.map(\.description).joined(separator: ", "))]" }
}
