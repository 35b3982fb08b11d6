import Foundation

/// A value guarded by a lock that ThreadSanitizer understands.
///
/// `Synchronization.Mutex` on Linux synchronizes through futexes in the standard library,
/// which is not instrumented, so `swift test --sanitize=thread` reports every contended
/// access to the value it guards as a race: in this package's tests, and in the tests of
/// every app that uses it. `NSLock` locks a pthread mutex, which the sanitizer intercepts.
///
/// `@unchecked Sendable`: `lock` is a constant (and `NSLock` is thread-safe); `value` is read
/// and written only inside ``withLock(_:)``, while `lock` is held. Callers keep values that
/// are not `Sendable` inside the lock, as they would with `Mutex`.
package final class _Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    /// Makes a lock guarding an initial value.
    ///
    /// - Parameter value: The value.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    ///
    /// - Parameter body: Reads or changes the value; it must not call `withLock(_:)` on the
    ///   same lock again.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` throws.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
