// Raw access to the stored properties of entity objects, by byte offset.
//
// Entity classes are `final` classes whose `@Attribute` and `@Relationship` wrappers are
// stored properties at fixed offsets, found once per class by projecting the wrappers' key
// paths (`_storageOffset`) on a prototype; the graph then reads and writes any property by
// index without a key path, the way a stored-property key path projects its address.
//
// Invariant (upheld by `EntityDescription`, which records the offsets, and by the callers,
// which pass only an offset recorded for the object's own class and the wrapper type stored
// there): `offset` is the offset of a stored property of `object`'s class whose type is the
// `Storage` asked for, and the caller holds `object` alive for the pointer's use. Nothing
// here checks either; a wrong offset corrupts memory.

/// The address of a property's storage inside an object: `offset` bytes past its start.
///
/// - Parameters:
///   - object: An entity object, alive for as long as the pointer is used.
///   - offset: The offset of a stored property of `object`'s class of type `Storage`.
///   - type: The stored property's type.
/// - Returns: The property's storage; valid while `object` is alive.
@inlinable
@inline(__always)
internal func _storagePointer<Storage>(
    _ object: GraphObject,
    at offset: Int,
    as type: Storage.Type
) -> UnsafeMutablePointer<Storage> {
    UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
        .advanced(by: offset)
        .assumingMemoryBound(to: Storage.self)
}

/// The byte offset of a stored property of a final class, found by projecting its key path.
///
/// Inlined into a wrapper's accessor, where the key path is a literal, the projection folds
/// to a constant: no key path object is made.
///
/// - Parameters:
///   - object: An instance of the class.
///   - keyPath: A key path to a stored property of the class (not a computed one).
/// - Returns: The property's offset from the object's start.
@inlinable
@inline(__always)
internal func _storageOffset<Object: AnyObject, Storage>(
    _ object: Object,
    _ keyPath: ReferenceWritableKeyPath<Object, Storage>
) -> Int {
    let start = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    return withUnsafeMutablePointer(to: &object[keyPath: keyPath]) { UnsafeRawPointer($0) - start }
}

/// The storage of one to-one relationship of one object, seen as the one nullable
/// reference it holds: for the bulk paths that test and fill it without going through the
/// accessor's closures.
///
/// **Invariant:** `offset` is the storage offset of a to-one relationship of the object's
/// class, and that storage is exactly one optional reference (`_GraphEntity` requires the
/// size when it records its to-one offsets); the caller holds the object alive.
internal struct _ToOneSlot {
    private let address: UnsafeMutableRawPointer

    /// The to-one relationship stored at `offset` in `object`.
    ///
    /// - Parameters:
    ///   - object: An entity object, alive while the slot is used.
    ///   - offset: The storage offset of one of its to-one relationships.
    @inline(__always)
    init(_ object: GraphObject, offset: Int) {
        address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque()) + offset
    }

    /// Whether the relationship holds no object (read without counting a reference).
    @inline(__always)
    var isEmpty: Bool {
        address.load(as: UInt.self) == 0
    }

    /// Stores `target` in the empty relationship, retaining it once: the reference the
    /// relationship's storage owns from now on. No inverse is touched and nothing observes
    /// the write; the caller keeps the graph's state in step.
    ///
    /// - Parameter target: The object to relate; the slot must be empty.
    @inline(__always)
    func fill(with target: GraphObject) {
        assert(isEmpty, "internal inconsistency: filling a to-one relationship that holds an object")
        address.storeBytes(of: UInt(bitPattern: Unmanaged.passUnretained(target).retain().toOpaque()), as: UInt.self)
    }
}
