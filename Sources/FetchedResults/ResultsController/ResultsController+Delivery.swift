extension ResultsController {
    /// Delivers one commit's changes: Observation first, then the delegate in Core Data's
    /// order, then the change streams. The change set is built only when someone listens.
    func deliver(_ diff: IndexDiff<ObjectID>) {
        if !diff.deletedSections.isEmpty, sectionNames.count > 2 * index.directory.count + 16 {
            pruneSectionNames()
        }
        withObservableMutation {
            generation += 1
            cachedObjects = nil
        }
        _checkInvariants()
        let hasStreams = !streams.isEmpty
        guard delegate != nil || hasStreams else { return }
        let changeSet = makeChangeSet(diff)
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for change in changeSet.sectionChanges { delegate.controller(self, didChange: change) }
            for change in changeSet.objectChanges { delegate.controller(self, didChange: change) }
            delegate.controllerDidChangeContent(self)
            delegate.controller(self, didChangeContentWith: changeSet.changes)
        }
        if hasStreams { streams.yield(changeSet) }
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
        for section in diff.deletedSections.reversed() {
            sectionChanges.append(.delete(at: section.index, name: sectionName(for: section.value)))
        }
        for section in diff.insertedSections {
            sectionChanges.append(.insert(at: section.index, name: sectionName(for: section.value)))
        }
        // One array in Core Data's order (deletes, inserts, moves, updates), filled by one pass
        // per kind: a change set of a million rows is built without intermediate copies.
        var objectChanges: [ResultsObjectChange] = []
        objectChanges.reserveCapacity(diff.rows.count)
        for row in diff.rows {
            if case .delete(let id, let at) = row { objectChanges.append(.delete(id, at: at)) }
        }
        for row in diff.rows {
            if case .insert(let id, let at) = row { objectChanges.append(.insert(id, at: at)) }
        }
        for row in diff.rows {
            if case .move(let id, let from, let to, let changed) = row {
                objectChanges.append(.move(id, from: from, to: to, contentChanged: changed))
            }
        }
        for row in diff.rows {
            if case .update(let id, let at, let new) = row { objectChanges.append(.update(id, at: at, newIndexPath: new)) }
        }
        return ResultsChangeSet(changes: diff.changes, sectionChanges: sectionChanges, objectChanges: objectChanges)
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
    public func changes(
        bufferingPolicy: AsyncStream<ResultsChangeSet>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<ResultsChangeSet> {
        let (stream, continuation) = AsyncStream.makeStream(of: ResultsChangeSet.self, bufferingPolicy: bufferingPolicy)
        let number = streams.add(continuation)
        let registry = streams
        continuation.onTermination = { _ in registry.remove(number) }
        return stream
    }
}
