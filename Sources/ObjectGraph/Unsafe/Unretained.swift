/// A reference that counts nothing: the object is kept alive by someone else, named where
/// the handle is stored.
///
/// The graph's hot paths reach the graph, its entities, accessors and objects millions of
/// times per bulk insert or fetch; a strong reference costs an atomic retain and release per
/// use, and the objects involved are all kept alive by an owner that outlives the use (the
/// graph keeps its entities, the entity tables keep their objects, descriptions are never
/// freed). This handle is `Unmanaged` with the operations the module uses, so that every such
/// shortcut reads the same way and is found in this folder.
///
/// **Invariant (upheld by whoever makes the handle):** the object is alive for every use of
/// the handle. Each stored handle's documentation names the owner that guarantees it; a
/// handle made for one call lives no longer than the caller's own reference.
@usableFromInline
@frozen
internal struct _Unretained<Object: AnyObject> {
    @usableFromInline
    internal let _reference: Unmanaged<Object>

    /// A handle to `object`, counting no reference.
    @inlinable
    @inline(__always)
    internal init(_ object: Object) {
        _reference = Unmanaged.passUnretained(object)
    }

    /// A handle to what an `Unmanaged` reference names (the public relationship shapes hand
    /// objects over this way).
    @inlinable
    @inline(__always)
    internal init(_ reference: Unmanaged<Object>) {
        _reference = reference
    }

    /// The object, as a strong reference (counted from here on, as any strong reference).
    @inlinable
    internal var object: Object {
        @inline(__always) get { _reference.takeUnretainedValue() }
    }

    /// Runs `body` with the object, counting no reference for the call: the handle's
    /// invariant keeps the object alive, which the optimizer cannot see.
    ///
    /// `body` must not let the object escape nor drop the owner that keeps it alive.
    @inlinable
    @inline(__always)
    internal func borrow<Result>(_ body: (Object) -> Result) -> Result {
        _reference._withUnsafeGuaranteedRef(body)
    }

    /// Adds one counted reference, owned by the caller until a matching ``release()`` or
    /// ``takeRetained()``: the manual counts of tables and lists that keep objects in
    /// memory the runtime does not scan.
    @inlinable
    @inline(__always)
    @discardableResult
    internal func retain() -> Self {
        _ = _reference.retain()
        return self
    }

    /// Gives up one counted reference added by ``retain()``.
    @inlinable
    @inline(__always)
    internal func release() {
        _reference.release()
    }

    /// The object, taking over one counted reference added by ``retain()``.
    @inlinable
    @inline(__always)
    internal func takeRetained() -> Object {
        _reference.takeRetainedValue()
    }

    /// Whether both handles name the same object.
    @inlinable
    @inline(__always)
    internal func isSame(as other: Self) -> Bool {
        _reference.toOpaque() == other._reference.toOpaque()
    }
}

extension _Unretained {
    /// The element at `index` of an array of optional references, counting no reference:
    /// read as the one word it is, not copied out (a copy retains it, and retains the
    /// array's buffer while the copy is made).
    ///
    /// **Invariant:** an optional reference to a Swift class is one word, zero for `nil`
    /// (asserted); the array keeps its elements alive, and the caller neither replaces the
    /// element nor lets the array go while it uses the handle.
    ///
    /// - Parameters:
    ///   - index: A position, in the array or not.
    ///   - array: The array.
    /// - Returns: The element, or `nil` when it is `nil` or `index` is out of the array.
    @inline(__always)
    internal static func element(at index: Int, of array: [Object?]) -> _Unretained? {
        assert(MemoryLayout<Object?>.size == MemoryLayout<UInt>.size, "internal inconsistency: an optional reference is not one word")
        let bits = array.withUnsafeBufferPointer { table -> UInt in
            guard index >= 0 && index < table.count else { return 0 }
            return UnsafeRawPointer(table.baseAddress.unsafelyUnwrapped).load(
                fromByteOffset: index &* MemoryLayout<Object?>.stride, as: UInt.self)
        }
        guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return _Unretained(Unmanaged<Object>.fromOpaque(pointer))
    }
}
