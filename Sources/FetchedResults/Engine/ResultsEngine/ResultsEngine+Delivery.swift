extension ResultsEngine {
    /// Delivers one commit's changes: Observation first, then the delegate in Core Data's
    /// order, then the change streams. The change set is built only when someone listens.
    func deliver(_ diff: IndexDiff<ObjectID>) {
        var diff = diff
        // A change computed earlier and not delivered yet comes first: the delegate's rows
        // are the ones before it.
        if undeliveredDiff != nil { deliverUndeliveredChange() }
        if !diff.deletedSections.isEmpty, sectionNames.count > 2 * index.directory.count + 16 {
            pruneSectionNames()
        }
        // The sections whose totals changed: their headers refresh.
        if totals != nil {
            if totals?.isSettled == false { settleTotals() }
            diff.changes.reconfiguredSections = takeReconfiguredSections(diff)
        }
        withObservableMutation {
            generation += 1
            cachedObjects = nil
        }
        _checkInvariants()
        let hasStreams = !streams.isEmpty
        if let delegate, let controller {
            // The rows straight from the diff: the change set's arrays are built for the
            // streams only. The sections' names are read before any callback runs.
            var sectionChanges: [ResultsSectionChange] = []
            forEachSectionChange(of: diff) { sectionChanges.append($0) }
            delegate.controllerWillChangeContent(controller)
            for change in sectionChanges { delegate.controller(controller, didChange: change) }
            forEachObjectChange(of: diff) { delegate.controller(controller, didChange: $0) }
            delegate.controllerDidChangeContent(controller)
            delegate.controller(controller, didChangeContentWith: diff.changes)
        }
        if hasStreams { streams.yield(makeChangeSet(diff)) }
    }

    /// Runs `body` as one mutation of ``sections`` and ``fetchedObjects`` for Observation.
    func withObservableMutation(_ body: () -> Void) {
        registrar.withMutation(of: self, keyPath: sectionsKeyPath) {
            registrar.withMutation(of: self, keyPath: fetchedObjectsKeyPath, body)
        }
    }

    /// The `Sendable` form of a diff, with section names and Core Data's callback order.
    func makeChangeSet(_ diff: IndexDiff<ObjectID>) -> ResultsChangeSet {
        var sectionChanges: [ResultsSectionChange] = []
        sectionChanges.reserveCapacity(diff.deletedSections.count + diff.insertedSections.count)
        forEachSectionChange(of: diff) { sectionChanges.append($0) }
        var objectChanges: [ResultsObjectChange] = []
        objectChanges.reserveCapacity(diff.rows.count + diff.blockMoves.reduce(0) { $0 + $1.ids.count })
        forEachObjectChange(of: diff) { objectChanges.append($0) }
        return ResultsChangeSet(changes: diff.changes, sectionChanges: sectionChanges, objectChanges: objectChanges)
    }

    /// Calls `body` with each section change of a diff in Core Data's order: deletions from
    /// the last section to the first, then insertions from the first to the last.
    private func forEachSectionChange(of diff: IndexDiff<ObjectID>, _ body: (ResultsSectionChange) -> Void) {
        for section in diff.deletedSections.reversed() {
            body(.delete(at: section.index, name: sectionName(for: section.value)))
        }
        for section in diff.insertedSections {
            body(.insert(at: section.index, name: sectionName(for: section.value)))
        }
    }

    /// Calls `body` with each row change of a diff in Core Data's order: deletions,
    /// insertions, moves, then updates, one pass over the rows per kind.
    private func forEachObjectChange(of diff: IndexDiff<ObjectID>, _ body: (ResultsObjectChange) -> Void) {
        for row in diff.rows {
            if case .delete(let id, let at) = row { body(.delete(id, at: at)) }
        }
        for row in diff.rows {
            if case .insert(let id, let at) = row { body(.insert(id, at: at)) }
        }
        for row in diff.rows {
            if case .move(let id, let from, let to, let changed) = row { body(.move(id, from: from, to: to, contentChanged: changed)) }
        }
        diff.forEachBlockMove { id, from, to, changed in body(.move(id, from: from, to: to, contentChanged: changed)) }
        for row in diff.rows {
            if case .update(let id, let at, let new) = row { body(.update(id, at: at, newIndexPath: new)) }
        }
    }

    /// Forgets the names of sections that no longer exist.
    private func pruneSectionNames() {
        let live = Set(index.directory.map { index.keys.sectionValues[Int($0)] })
        sectionNames = sectionNames.filter { live.contains($0.key) }
    }

    /// Subscribes to the controller's changes: one ``ResultsChangeSet`` per commit that
    /// changes the results, from now on, until the controller is deinitialized or the
    /// consumer stops iterating.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while the consumer is busy; by
    ///   default every change set.
    /// - Returns: An asynchronous sequence of `Sendable` change sets.
    func changes(
        bufferingPolicy: AsyncStream<ResultsChangeSet>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<ResultsChangeSet> {
        let (stream, continuation) = AsyncStream.makeStream(of: ResultsChangeSet.self, bufferingPolicy: bufferingPolicy)
        let number = streams.add(continuation)
        let registry = streams
        continuation.onTermination = { _ in registry.remove(number) }
        return stream
    }
}
