/// Coalesces the changes of a list between two updates of its view into one batch, and at
/// each flush decides — from the state at that moment — whether the view animates that batch
/// or reloads.
///
/// Changes arrive from three kinds of source:
///
/// - whole ``ListChanges`` values (from a controller or the sectioned diff) with ``add(_:)``;
/// - per-change events shaped like Core Data's controller delegate calls, between
///   ``willChangeContent()`` and ``didChangeContent()``, with the quirks real controllers
///   deliver cleaned up;
/// - ``reloadAll()``.
///
/// Batches added between two flushes compose exactly into one batch relative to the state at
/// the last flush: applying it gives the same rows as applying each batch in turn. A row
/// inserted and then deleted disappears; a row updated several times is updated once.
/// Composition costs O(c log k) for c changes and k changes pending, whatever the number of
/// rows.
///
/// ``flush()`` (called by the app: at the end of a commit, on a display-link tick, or after a
/// ``FlushDebounce``) reads the target's visibility and displayed rows, stages the batch, and
/// asks the ``ReloadPolicy``. A target that is not visible is never animated: it is owed one
/// reload, delivered at the first flush that finds it visible. A batch that would break a
/// batch rule is never animated either. Every flush returns a ``FlushReport`` (also in
/// ``lastReport`` and passed to ``onFlush``) with the decision and its reason.
///
/// The accumulator is not thread-safe: use it on the actor its target lives on (usually the
/// main actor). See the article “Reload or Animate” in the ListUpdates documentation for
/// how coalescing works and when a reload is chosen.
public final class ChangeAccumulator {
    /// The list view adapter that flushes deliver to. Held weakly: the adapter usually owns
    /// the accumulator. A flush with no target behaves as one with a hidden target.
    public weak var target: (any ListUpdateTarget)?

    /// Decides, at each flush, between animating and reloading.
    public var policy: any ReloadPolicy

    /// Called with the report of every flush, after the target was called and while the flush
    /// still runs: a flush requested from here is postponed until the current one ends.
    public var onFlush: ((FlushReport) -> Void)?

    /// How controller events' positions are read (Core Data's quirks cleaned up, or taken
    /// literally). Applies to event batches opened after it is set.
    public var eventInterpretation: EventInterpretation

    /// The report of the most recent flush, or `nil` before the first one.
    public internal(set) var lastReport: FlushReport?

    var machine = StateMachine()
    var composer = Composer()
    /// The controller events since `willChangeContent()`, while a batch is open.
    var openEvents = EventBatch(.coreData)

    /// Creates an accumulator.
    ///
    /// - Parameters:
    ///   - target: The list view adapter to deliver to (held weakly).
    ///   - policy: Decides between animating and reloading; ``DefaultReloadPolicy`` by default.
    ///   - eventInterpretation: How controller events' positions are read:
    ///     ``EventInterpretation/coreData`` (the default) cleans up Core Data's quirks,
    ///     ``EventInterpretation/exact`` takes them literally, as `ResultsController`'s
    ///     per-object events need.
    /// - Complexity: O(1).
    public init(
        target: (any ListUpdateTarget)? = nil, policy: any ReloadPolicy = DefaultReloadPolicy(),
        eventInterpretation: EventInterpretation = .coreData
    ) {
        self.target = target
        self.policy = policy
        self.eventInterpretation = eventInterpretation
    }

    // MARK: Adding changes

    /// Composes a batch of changes with everything accumulated since the last flush.
    ///
    /// The batch's before-positions are relative to the state after every batch added so far
    /// (the state the data had just before this change), its after-positions to the state
    /// just after it. It may be a general set of changes (a reconfigured move source means a
    /// moved row that changed; rows may change inside moved sections).
    ///
    /// Added while a controller event batch is open (between ``willChangeContent()`` and
    /// ``didChangeContent()``), the batch can not be ordered against the open events, so the
    /// accumulator owes a reload (``ReloadReason/inconsistentInput(_:)``) instead.
    ///
    /// A batch that contradicts itself (a row removed twice, two rows placed at one index
    /// path) is composed as well as it can be and makes the next flush reload
    /// (``ReloadReason/inconsistentInput(_:)``); one that does not match what the target
    /// displays is caught at the flush (``ReloadReason/wouldBreakRule(_:)``).
    ///
    /// - Parameter changes: The batch.
    /// - Precondition: Every index path has exactly two indexes and no position is negative.
    /// - Complexity: O(c log c + c log k) for c changes and k changes pending.
    public func add(_ changes: ListChanges) {
        if machine.eventDepth > 0 {
            machine.reloadRequested(.inconsistentInput("changes added while a controller event batch was open"))
            composer = Composer()
        } else {
            compose(changes)
        }
        _checkInvariants()
    }

    /// Composes a batch, unless a reload is owed.
    func compose(_ changes: ListChanges) {
        switch machine.changesArrived() {
        case .compose:
            composer.compose(changes)
        case .discard:
            break
        }
    }

    /// Throws away what was accumulated: the next flush that finds the target visible reloads
    /// it. Changes added until then are covered by that reload and not composed.
    ///
    /// - Complexity: O(1).
    public func reloadAll() {
        machine.reloadRequested(.requested)
        composer = Composer()
        _checkInvariants()
    }

    // MARK: What is pending

    /// Whether the next flush has something to deliver (changes, or an owed reload).
    public var hasPendingChanges: Bool { machine.pending != .nothing }

    /// The reload the next flush owes the target, or `nil` when none is owed.
    public var pendingReload: ReloadReason? {
        if case .reload(let reason) = machine.pending { return reason }
        return nil
    }

    /// The changes accumulated since the last flush, composed into one general set relative to
    /// the state at the last flush (empty when nothing is pending or a reload is owed).
    ///
    /// - Complexity: O(k log k) for k changes pending.
    public var pendingChanges: ListChanges {
        machine.pending == .changes ? composer.result() : ListChanges()
    }
}

@available(*, unavailable)
extension ChangeAccumulator: Sendable {}
