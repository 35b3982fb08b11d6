import Foundation

extension ChangeAccumulator {
    /// Opens a batch of controller events, as a controller delegate's
    /// `controllerWillChangeContent(_:)` does.
    ///
    /// Events up to the matching ``didChangeContent()`` form one batch: their before-positions
    /// are relative to the state now, their after-positions to the state at
    /// ``didChangeContent()``. A nested call (a second `willChangeContent()` before the
    /// batch closes) only nests: the batch closes at the outermost ``didChangeContent()``.
    ///
    /// - Complexity: O(1).
    public func willChangeContent() {
        switch machine.willChangeContent() {
        case .open: openEvents = EventBatch(eventInterpretation)
        case .nest: break
        }
        _checkInvariants()
    }

    /// Records a section change, as a controller delegate's
    /// `controller(_:didChange:atSectionIndex:for:)` does, or a refresh of a section's header.
    ///
    /// Outside a ``willChangeContent()`` … ``didChangeContent()`` bracket the change is a batch
    /// of its own, composed at once.
    ///
    /// - Parameters:
    ///   - sectionIndex: The section's position: **before** the change for a delete, **after**
    ///     it for an insert or a header refresh (``SectionChange/reconfigure``).
    ///   - change: Insert, delete, or a refresh in place of the section's header.
    /// - Complexity: O(1) amortized inside a batch; outside one, O(log k) for k changes
    ///   pending, as ``add(_:)`` with one change.
    public func didChangeSection(at sectionIndex: Int, for change: SectionChange) {
        if machine.eventDepth > 0 {
            openEvents.section(at: sectionIndex, change)
        } else {
            var single = EventBatch(eventInterpretation)
            single.section(at: sectionIndex, change)
            compose(single.changes())
        }
        _checkInvariants()
    }

    /// Records an object change, as a controller delegate's
    /// `controller(_:didChange:at:for:newIndexPath:)` does.
    ///
    /// The object identifies the row across the events of one batch, so that the quirks of
    /// real controllers can be cleaned up (see the article “Reload or Animate” in the
    /// ListUpdates documentation): a move to the same position is an update, an update with
    /// a new position is a move, an update plus a move is one changed move, an insert then a
    /// delete is nothing, a delete then an insert is a changed move or an update. With
    /// ``eventInterpretation`` set to
    /// ``EventInterpretation/exact`` positions are taken literally: equal positions do not
    /// turn a move into an update.
    ///
    /// Outside a ``willChangeContent()`` … ``didChangeContent()`` bracket the change is a batch
    /// of its own, composed at once.
    ///
    /// - Parameters:
    ///   - object: The changed object's identity (its object ID, or the object if hashable).
    ///   - indexPath: Its index path **before** the change; required for delete, move and
    ///     update.
    ///   - change: The kind of change.
    ///   - newIndexPath: Its index path **after** the change; required for insert and move,
    ///     optional for update.
    /// - Complexity: O(1) amortized inside a batch; outside one, O(log k) for k changes
    ///   pending, as ``add(_:)`` with one change.
    public func didChangeObject(
        _ object: some Hashable, at indexPath: IndexPath?, for change: ObjectChange, newIndexPath: IndexPath?
    ) {
        if machine.eventDepth > 0 {
            openEvents.object(AnyHashable(object), at: indexPath, change, newIndexPath: newIndexPath)
        } else {
            var single = EventBatch(eventInterpretation)
            single.object(AnyHashable(object), at: indexPath, change, newIndexPath: newIndexPath)
            compose(single.changes())
        }
        _checkInvariants()
    }

    /// Closes the batch opened by ``willChangeContent()`` and composes it, as a controller
    /// delegate's `controllerDidChangeContent(_:)` does. A call with no open batch does
    /// nothing; a call that closes a nested ``willChangeContent()`` only un-nests.
    ///
    /// The batch is composed, not delivered: call ``flush()`` to update the view (for
    /// example right after this call, to behave like a classic delegate).
    ///
    /// - Complexity: O(e log e + e log k) for e events and k changes pending.
    public func didChangeContent() {
        switch machine.didChangeContent() {
        case .commit:
            let batch = openEvents
            openEvents = EventBatch(eventInterpretation)
            if !batch.isEmpty { compose(batch.changes()) }
        case .unnest, .ignore:
            break
        }
        _checkInvariants()
    }
}
