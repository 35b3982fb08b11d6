import ObjectGraph

/// What one commit did to the relationship's membership and order, in the relationship's
/// order after the commit.
struct MembershipChange {
    /// Members that left (deleted, or no longer related).
    var removed: Set<ObjectID> = []
    /// Members that arrived or moved, by position after the commit: they need new labels.
    var unstable: [ObjectID: Int] = [:]
    /// The members that arrived.
    var added: Set<ObjectID> = []
}

extension OrderedResultsEngine {
    /// The member-side property that holds the owner: the one relationship of `Member` to
    /// `Owner`'s entity, if there is exactly one and every member holds the owner in it.
    ///
    /// - Complexity: O(n) for n members.
    func findInverse(of list: [Member]) -> String? {
        let ownerEntity = Owner.entity.name
        let candidates = Member.entity.relationships.filter { $0.relationship?.destinationName == ownerEntity }
        guard candidates.count == 1 else { return nil }
        let name = candidates[0].name
        for member in list where !isRelated(member, through: name) { return nil }
        return name
    }

    /// Whether `member` holds the owner in its property `name` (a to-one, a set or an array).
    func isRelated(_ member: Member, through name: String) -> Bool {
        let owner = owner
        return graph.withoutObservation { () -> Bool in
            guard let value = member.value(forKey: name) else { return false }
            if let object = value as? GraphObject { return object === owner }
            func holds<S: Sequence>(_ objects: S) -> Bool { objects.contains { ($0 as AnyObject) === owner } }
            if let objects = value as? any Sequence { return holds(objects) }
            return false
        }
    }

    /// The members a commit removed, added and moved, and the list after it.
    ///
    /// With an inverse, the members that arrived or left are the member-side objects the
    /// commit inserted, or whose inverse it updated (the graph writes it for each), the moved ones
    /// are the commit's `OrderedMove`s, and arrivals are found by scanning the list from
    /// both ends: O(k + d) for k changed members at distance d from the nearer end. Without
    /// one, or when the counts do not add up, the whole list is walked once: O(n).
    func membershipChange(in changes: GraphChanges) -> (MembershipChange, [Member]) {
        var change = MembershipChange()
        for id in changes.deleted where labels[id] != nil { change.removed.insert(id) }
        var relationshipChanged = changes.updated[ownerID]?.contains(relationshipProperty) ?? false
        // A relationship without an inverse keeps the objects deleted since they were added:
        // an undone deletion brings one back as a member, with no write to the relationship.
        if !relationshipChanged && inverseName == nil {
            let entity = Member.entity
            relationshipChanged = changes.insertedIDs.contains { $0.entity === entity }
        }
        guard relationshipChanged else { return (change, []) }
        let list = currentMembers()
        if let inverseName, let inverseProperty = Member.entity.index(of: inverseName) {
            let entity = Member.entity
            var added: [ObjectID] = []
            func consider(_ id: ObjectID) {
                guard id.entity === entity, !changes.deleted.contains(id), !change.removed.contains(id),
                      let member = graph.object(with: id) as? Member else { return }
                let isMember = isRelated(member, through: inverseName)
                if isMember, labels[id] == nil, !change.added.contains(id) {
                    change.added.insert(id)
                    added.append(id)
                } else if !isMember, labels[id] != nil {
                    change.removed.insert(id)
                }
            }
            for id in changes.insertedIDs { consider(id) }
            // The graph writes the inverse of every member that arrived or left.
            for (id, properties) in changes.updated where properties.contains(inverseProperty) { consider(id) }
            if labels.count - change.removed.count + added.count == list.count,
               let positions = positions(of: change.added, in: list) {
                for move in changes.moves where move.owner == ownerID && move.relationship == relationshipName {
                    change.unstable[move.object] = move.to
                }
                for (id, position) in positions { change.unstable[id] = position }
                if change.unstable.allSatisfy({ list.indices.contains($1) && list[$1].objectID == $0 }) {
                    return (change, list)
                }
            }
        }
        return (walk(list), list)
    }

    /// The positions of `ids` in `list`, scanning from both ends at once; `nil` when one is
    /// missing.
    ///
    /// - Complexity: O(d) for the largest distance d of one of them from the nearer end.
    private func positions(of ids: Set<ObjectID>, in list: [Member]) -> [ObjectID: Int]? {
        var found: [ObjectID: Int] = [:]
        guard !ids.isEmpty else { return found }
        var low = 0
        var high = list.count - 1
        while low <= high, found.count < ids.count {
            let first = list[low].objectID
            if ids.contains(first) { found[first] = low }
            if high != low {
                let last = list[high].objectID
                if ids.contains(last) { found[last] = high }
            }
            low += 1
            high -= 1
        }
        return found.count == ids.count ? found : nil
    }

    /// The membership change found by walking the whole list: arrivals have no label, the
    /// members left out are gone, and among the survivors those outside a longest run of
    /// increasing labels moved.
    ///
    /// - Complexity: O(n log n) for n members.
    private func walk(_ list: [Member]) -> MembershipChange {
        var change = MembershipChange()
        var unseen = labels
        var survivors: [(id: ObjectID, position: Int, label: Int64)] = []
        survivors.reserveCapacity(list.count)
        for (position, member) in list.enumerated() {
            let id = member.objectID
            if let label = unseen.removeValue(forKey: id) {
                survivors.append((id, position, label))
            } else {
                change.added.insert(id)
                change.unstable[id] = position
            }
        }
        change.removed = Set(unseen.keys)
        var staying = LongestIncreasingSubsequence()
        staying.mark(survivors.map { Int($0.label) })
        for (index, survivor) in survivors.enumerated() where !staying.keep[index] {
            change.unstable[survivor.id] = survivor.position
        }
        return change
    }
}
