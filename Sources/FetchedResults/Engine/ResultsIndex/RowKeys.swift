/// The keys extracted from one fetched object: its section key and its sort keys, in the
/// compact form the index compares.
struct RowKeys: Equatable {
    /// The section key; `.null` for every row of an unsectioned request.
    var section: SortValue
    /// One value per sort key of the request, in the request's order.
    var sort: SortValues

    /// The keys with these values.
    ///
    /// - Parameters:
    ///   - section: The section key's value (`.null` without a section key).
    ///   - sort: One value per sort key, in the request's order.
    init(section: SortValue, sort: SortValues) {
        self.section = section
        self.sort = sort
    }

    /// The keys with these values, the sort keys' given as an array.
    init(section: SortValue, sort: [SortValue]) {
        self.init(section: section, sort: SortValues(sort))
    }
}

/// One row's sort-key values: the first in place, any others in an array, so that the keys
/// of a request with one sort key (the usual case) allocate nothing. A commit evaluates
/// every changed object into a ``RowKeys``; an array each would be an allocation and a
/// deallocation per object.
struct SortValues: RandomAccessCollection, MutableCollection, Equatable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The first value (`.null` when there is none).
    private var head: SortValue
    /// The values after the first.
    private var tail: [SortValue]

    /// The number of values.
    let count: Int

    /// The values of `values`, in order.
    ///
    /// - Complexity: O(m) for m values.
    init(_ values: [SortValue]) {
        count = values.count
        head = values.first ?? .null
        tail = values.count > 1 ? Array(values[1...]) : []
    }

    /// The values of the literal, in order.
    init(arrayLiteral values: SortValue...) {
        self.init(values)
    }

    /// `count` values, the value at each position made by `value`, in order of position.
    ///
    /// - Complexity: O(count); allocates only for two values or more.
    init(count: Int, _ value: (Int) throws -> SortValue) rethrows {
        self.count = count
        head = count > 0 ? try value(0) : .null
        tail = []
        guard count > 1 else { return }
        tail.reserveCapacity(count - 1)
        for position in 1..<count { tail.append(try value(position)) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The value at `position`, which must be in `0..<count`.
    subscript(position: Int) -> SortValue {
        get {
            require(position >= 0 && position < count, "sort key \(position) outside 0..<\(count)")
            return position == 0 ? head : tail[position - 1]
        }
        set {
            require(position >= 0 && position < count, "sort key \(position) outside 0..<\(count)")
            if position == 0 { head = newValue } else { tail[position - 1] = newValue }
        }
    }

    static func == (lhs: SortValues, rhs: SortValues) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    var description: String { Array(self).description }
}
