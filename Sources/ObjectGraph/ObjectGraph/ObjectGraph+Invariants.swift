extension ObjectGraph {
    #if FRK_INVARIANT_CHECKS
        /// Checks the pending changes and per-entity counts (O(pending + inserted + entities)).
        internal func _checkInvariants() {
            for (position, entry) in _pending.enumerated() {
                let object = entry.object
                require(Int(object._pendingSlot) == position + 1, "invariant: pending slot of \(object.objectID)")
                require(object._context === _context, "invariant: a pending object of another context")
                require(object._flags & GraphObject._insertedFlag == 0, "invariant: a pending entry for an inserted object")
                if entry.isDeleted {
                    require(object._flags & GraphObject._deletedFlag != 0, "invariant: deleted flag")
                    require(_state(of: object).objects[object._serial] == nil, "invariant: a deleted object is still listed")
                }
            }
            var previousEnd: [ObjectIdentifier: Int] = [:]
            for run in _insertRuns {
                require(run.start < run.end && run.end <= run.entity.objects.count, "invariant: an insert run out of its table")
                require(previousEnd[ObjectIdentifier(run.entity), default: 0] <= run.start, "invariant: insert runs out of order")
                previousEnd[ObjectIdentifier(run.entity)] = run.end
                for case let object? in run.entity.objects[run.start..<run.end] {
                    require(object._flags & GraphObject._insertedFlag != 0, "invariant: inserted object \(object.objectID)")
                    require(
                        (object._flags & GraphObject._staleInverseFlag != 0) == (object._pendingSlot != 0),
                        "invariant: deferred members of \(object.objectID)"
                    )
                }
            }
            for object in _deletedInserts {
                require(
                    object._flags & (GraphObject._insertedFlag | GraphObject._deletedFlag) == GraphObject._insertedFlag | GraphObject._deletedFlag,
                    "invariant: flags of the deleted insert \(object.objectID)"
                )
                require(_state(of: object).objects[object._serial] == nil, "invariant: a deleted object is still listed")
            }
            for position in 0..<_deferredInverses.count {
                let list = _deferredInverses[position]
                if position >= _deferredInverses.firstPendingList {
                    require(list.target._flags & GraphObject._insertedFlag != 0, "invariant: deferred list of the committed \(list.target.objectID)")
                    require(Int(list.target._pendingSlot) == position + 1, "invariant: deferred list of \(list.target.objectID)")
                } else {
                    require(list.target._flags & GraphObject._insertedFlag == 0, "invariant: a committed list of the inserted \(list.target.objectID)")
                }
                require(list.target._flags & GraphObject._staleInverseFlag != 0, "invariant: stale flag of \(list.target.objectID)")
            }
            for case let entity? in _entities {
                require(entity.liveCount >= 0 && entity.liveCount <= entity.objects.count, "invariant: live count of \(entity.description.name)")
            }
        }

        /// Checks one object's relationships against their inverses (O(its related objects)).
        internal func _checkInvariants(around object: GraphObject) {
            guard object._context === _context else { return }
            _checkInverses(of: object)
        }

        /// Every related object of this graph holds `object` in the inverse.
        private func _checkInverses(of object: GraphObject) {
            let entity = _state(of: object)
            for (index, accessor) in entity.relationships {
                guard let link = entity.inverses[index], let inverse = link.entity.description.relationshipAccessors[link.index] else { continue }
                for target in accessor.objects(object) where target._context === _context {
                    require(
                        inverse.contains(target, object) || _defers(object, in: target, inverse),
                        "invariant: \(object.objectID).\(entity.description.properties[index].name) holds \(target.objectID) but not the other way round"
                    )
                }
            }
        }

        /// Checks everything (O(objects + relationships)); for tests.
        internal func _checkAllInvariants() {
            _checkInvariants()
            for case let entity? in _entities {
                var live = 0
                for (serial, object) in entity.objects.enumerated() {
                    guard let object else { continue }
                    live += 1
                    require(object._context === _context && object._serial == serial, "invariant: object table of \(entity.description.name)")
                    require(object._entity === entity.description, "invariant: entity of \(object.objectID)")
                    require(object._flags & GraphObject._deletedFlag == 0, "invariant: a deleted object is listed")
                    _checkInverses(of: object)
                }
                require(live == entity.liveCount, "invariant: live count of \(entity.description.name)")
            }
        }
    #else
        @inline(__always) internal func _checkInvariants() {}
        @inline(__always) internal func _checkInvariants(around object: GraphObject) {}
        @inline(__always) internal func _checkAllInvariants() {}
    #endif
}
