extension ChangeAccumulator {
    /// Delivers what accumulated since the last flush to the target, deciding from the state
    /// at this moment whether it animates or reloads.
    ///
    /// The flush reads the target's visibility and displayed row counts now, stages the
    /// composed batch, checks the stages against the batch rules, and asks the policy. Then:
    ///
    /// - a target that is not visible (or gone) gets nothing now and is owed one reload,
    ///   delivered at the first flush that finds it visible;
    /// - a batch that would break a rule, or that the policy declines, is a reload;
    /// - otherwise the target performs the stages.
    ///
    /// A flush requested while a flush runs (from the target, the policy or ``onFlush``) is
    /// postponed: it runs right after the current one ends, so changes added meanwhile are
    /// delivered in a batch of their own. Events of a controller batch still open are not part
    /// of this flush; they compose relative to the state it delivers.
    ///
    /// - Returns: What was decided and why (also stored in ``lastReport`` and passed to
    ///   ``onFlush``); when postponed flushes ran after this one, the report of the last.
    /// - Complexity: O(k log k + s) for k changes pending and s sections, plus the target's work.
    @discardableResult
    public func flush() -> FlushReport {
        switch machine.flushRequested() {
        case .postpone:
            return publish(FlushReport(outcome: .postponed))
        case .nothing:
            return publish(FlushReport(outcome: .nothing))
        case .evaluate(var pending):
            while true {
                let report = publish(evaluate(pending))
                let again = machine.flushEnded()
                guard again, case .evaluate(let next) = machine.flushRequested() else { return report }
                pending = next
            }
        }
    }

    @discardableResult
    private func publish(_ report: FlushReport) -> FlushReport {
        _checkInvariants()
        lastReport = report
        onFlush?(report)
        return report
    }

    /// Decides and delivers one flush; the machine is in its flushing phase.
    private func evaluate(_ pending: StateMachine.Pending) -> FlushReport {
        let composed = composer
        composer = Composer()
        let target = self.target
        let isVisible = target?.isVisible ?? false
        let displayed = target?.displayedRowCounts ?? []
        var report = FlushReport(
            outcome: .nothing, isVisible: isVisible, batchCount: composed.batchCount,
            displayedRowCount: displayed.reduce(0, +))

        let decision: ReloadDecision
        var stages: [ListChanges] = []
        switch pending {
        case .nothing:
            requirementFailure("internal inconsistency: evaluating a flush with nothing pending")
        case .reload(let reason):
            decision = .reload(reason)
        case .changes:
            let changes = composed.result()
            report.changeCount = changes.count
            if let problem = composed.inconsistency {
                decision = .reload(.inconsistentInput(problem))
            } else if changes.isEmpty {
                return report
            } else {
                stages = changes.staged()
                let context = ReloadContext(
                    isVisible: isVisible, changes: changes, stages: stages, displayedRowCounts: displayed,
                    ruleViolation: Self.firstViolation(of: stages, displayedRowCounts: displayed))
                let asked = policy.decision(for: context)
                if asked == .animate, let violation = context.ruleViolation {
                    // A policy chooses among safe outcomes only.
                    decision = .reload(.wouldBreakRule(violation))
                } else {
                    decision = asked
                }
            }
        }

        guard isVisible, let target else {
            // Rule 17: never a batch to a view that is not on screen; one reload when it is.
            // A reload owed before this flush keeps its reason; new changes are owed one because
            // the target is not visible.
            let reason: ReloadReason
            if case .reload(let owed) = pending { reason = owed } else { reason = .notVisible }
            machine.deferred(reason)
            report.outcome = .deferredUntilVisible
            report.reason = reason
            return report
        }
        switch decision {
        case .animate:
            report.outcome = .animated
            report.update = .animate(stages)
            target.performBatch(stages: stages)
        case .reload(let reason):
            report.outcome = .reloaded
            report.update = .reload
            report.reason = reason
            target.reloadData()
        }
        return report
    }

    /// The first batch rule (strict mode) that applying `stages` in turn to a list showing
    /// `displayedRowCounts` breaks, or `nil`.
    ///
    /// - Complexity: O(c log c + s) for c changes and s sections.
    static func firstViolation(of stages: [ListChanges], displayedRowCounts: [Int]) -> BatchUpdateError? {
        var counts = displayedRowCounts
        for stage in stages {
            do {
                // Rows of inserted or reloaded sections come from the data source; a later
                // stage only refreshes moved rows, never rows of those sections.
                counts = try stage.rowCountsAfter(beforeRowCounts: counts, strict: true).map { $0 ?? 0 }
            } catch {
                return error
            }
        }
        return nil
    }
}
