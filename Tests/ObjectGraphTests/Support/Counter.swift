import Synchronization

/// A counter that a `@Sendable` closure (such as Observation's `onChange`) can bump.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    /// The count.
    var value: Int { storage.load(ordering: .relaxed) }

    /// Adds one.
    func increment() { storage.add(1, ordering: .relaxed) }
}
