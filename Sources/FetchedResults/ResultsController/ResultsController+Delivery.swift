extension ResultsController {
    /// Delivers one commit's changes: Observation first, then the delegate in Core Data's
    /// order, then the change streams.
    func deliver(_ diff: IndexDiff<ObjectID>) {
        let changeSet = makeChangeSet(diff)
        if !diff.deletedSections.isEmpty, sectionNames.count > 2 * index.directory.count + 16 {
            pruneSectionNames()
        }
        registrar.withMutation(of: self, keyPath: \.sections) {
            registrar.withMutation(of: self, keyPath: \.fetchedObjects) {
                generation += 1
                cachedObjects = nil
            }
        }
        _checkInvariants()
        if let delegate {
            delegate.controllerWillChangeContent(self)
            for change in changeSet.sectionChanges { delegate.controller(self, didChange: change) }
            for change in changeSet.objectChanges { delegate.controller(self, didChange: change) }
            delegate.controllerDidChangeContent(self)
            delegate.controller(self, didChangeContentWith: changeSet.changes)
        }
        streams.yield(changeSet)
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
        var deletes: [ResultsObjectChange] = []
        var inserts: [ResultsObjectChange] = []
        var moves: [ResultsObjectChange] = []
        var updates: [ResultsObjectChange] = []
        for row in diff.rows {
            switch row {
            case .delete(let id, let at): deletes.append(.delete(id, at: at))
            case .insert(let id, let at): inserts.append(.insert(id, at: at))
            case .move(let id, let from, let to, let changed): moves.append(.move(id, from: from, to: to, contentChanged: changed))
            case .update(let id, let at, let new): updates.append(.update(id, at: at, newIndexPath: new))
            }
        }
        return ResultsChangeSet(changes: diff.changes, sectionChanges: sectionChanges, objectChanges: deletes + inserts + moves + updates)
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
