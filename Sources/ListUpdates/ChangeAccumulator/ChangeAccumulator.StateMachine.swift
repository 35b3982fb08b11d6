extension ChangeAccumulator {
    /// The life cycle of an accumulator: begin / accumulate / flush, with a defined outcome for
    /// every event in every state.
    ///
    /// Two things are tracked: what is *pending* for the next flush (nothing, composed changes,
    /// or a reload), and the *phase* (accumulating, or inside a flush, which includes reading
    /// the target, asking the policy and delivering). Controller event batches
    /// (`willChangeContent()` … `didChangeContent()`) nest by depth on top of both. Each event
    /// returns the action the accumulator performs; the machine itself never calls out.
    struct StateMachine {
        /// What the next flush has to deliver.
        enum Pending: Equatable {
            /// Nothing changed since the last flush.
            case nothing
            /// Changes are composed and waiting.
            case changes
            /// A reload is owed; changes arriving meanwhile are covered by it.
            case reload(ReloadReason)
        }

        private enum Phase: Equatable {
            case accumulating
            /// Inside `flush()`; `again` records a flush requested meanwhile.
            case flushing(again: Bool)
        }

        private(set) var pending = Pending.nothing
        private var phase = Phase.accumulating
        /// How many `willChangeContent()` calls are open.
        private(set) var eventDepth = 0

        /// Whether a flush is running (the target, the policy or a delivery is being called).
        var isFlushing: Bool { phase != .accumulating }

        // MARK: Changes

        /// What to do with a batch of changes that arrived.
        enum AddAction: Equatable {
            /// Compose it with the pending changes.
            case compose
            /// Drop it: a reload is owed and covers it.
            case discard
        }

        /// A batch of changes arrived (in any phase: changes arriving during a flush belong to
        /// the next one, relative to the state the current flush delivers).
        mutating func changesArrived() -> AddAction {
            switch pending {
            case .nothing:
                pending = .changes
                return .compose
            case .changes:
                return .compose
            case .reload:
                return .discard
            }
        }

        /// `reloadAll()` was called, or the composed changes can not be trusted: a reload is
        /// owed from now on. An explicit request wins over any other reason.
        mutating func reloadRequested(_ reason: ReloadReason) {
            if case .reload(.requested) = pending { return }
            pending = .reload(reason)
        }

        // MARK: Controller event batches

        /// What `willChangeContent()` does.
        enum BeginAction: Equatable {
            /// Open a new event batch.
            case open
            /// A batch is already open: the call only nests (its `didChangeContent()` closes
            /// nothing).
            case nest
        }

        mutating func willChangeContent() -> BeginAction {
            eventDepth += 1
            return eventDepth == 1 ? .open : .nest
        }

        /// What `didChangeContent()` does.
        enum EndAction: Equatable {
            /// Close the open event batch and compose it.
            case commit
            /// Close one nested level only.
            case unnest
            /// No batch is open: nothing to close.
            case ignore
        }

        mutating func didChangeContent() -> EndAction {
            guard eventDepth > 0 else { return .ignore }
            eventDepth -= 1
            return eventDepth == 0 ? .commit : .unnest
        }

        // MARK: Flushing

        /// What `flush()` does.
        enum FlushAction: Equatable {
            /// Called from inside a flush (by the target, the policy, or an observer): run once
            /// more when the current flush ends.
            case postpone
            /// Nothing is pending.
            case nothing
            /// Evaluate and deliver what was pending (now taken: `pending` is `.nothing`).
            case evaluate(Pending)
        }

        mutating func flushRequested() -> FlushAction {
            switch phase {
            case .flushing:
                phase = .flushing(again: true)
                return .postpone
            case .accumulating:
                guard pending != .nothing else { return .nothing }
                let taken = pending
                pending = .nothing
                phase = .flushing(again: false)
                return .evaluate(taken)
            }
        }

        /// The flush being evaluated could not deliver (the target is hidden or gone): the
        /// reload is owed until a flush finds it visible.
        mutating func deferred(_ reason: ReloadReason) {
            guard isFlushing else { requirementFailure("internal inconsistency: deferring outside a flush") }
            reloadRequested(reason)
        }

        /// The flush ended.
        ///
        /// - Returns: Whether a flush was requested meanwhile and must run now.
        mutating func flushEnded() -> Bool {
            guard case .flushing(let again) = phase else {
                requirementFailure("internal inconsistency: a flush ended that never started")
            }
            phase = .accumulating
            return again
        }
    }
}
