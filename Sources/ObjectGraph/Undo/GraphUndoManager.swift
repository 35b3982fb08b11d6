/// Undo and redo of a graph's commits, each one an ordinary commit that every observer,
/// controller and store hears of like any other.
///
/// ```swift
/// let undo = GraphUndoManager(levelsOfUndo: 50)
/// graph.undoManager = undo
/// graph.delete(item)
/// try graph.commit(actionName: "Delete Milk")
/// try undo.undo()                 // Milk is back, with the same ObjectID and relationships
/// undo.redoActionName             // "Delete Milk"
/// ```
///
/// By default every commit of the graph is one undo step. Commits of a ``GraphBatch``
/// (``ObjectGraph/apply(_:author:)``), commits whose author is in ``nonUndoableAuthors``, and
/// commits made while registration is disabled are not recorded. A step keeps only what it
/// needs to reverse: the old values of the properties the commit changed (a to-many
/// relationship's added and removed members), the objects it deleted, the IDs of the objects
/// it inserted.
///
/// **The rule for conflicts.** Undo never overwrites a change that it did not record: when a
/// commit that is not recorded (an import, another author's commit) changes a property that a
/// step recorded, or deletes one of its objects, undoing that step (or redoing it) throws
/// ``UndoError/conflict(_:)`` and changes nothing. Commits that are recorded stack up: undo
/// reverses the latest first.
///
/// An undo or redo is refused while the graph has pending changes
/// (``UndoError/pendingChanges``): commit or roll them back first. A new recorded commit
/// clears the redo stack.
///
/// A manager serves one graph, confined to its isolation domain.
public final class GraphUndoManager {
    /// The author tag of an undo's commit (``GraphChanges/author``).
    public static let undoAuthor = "ObjectGraph.undo"
    /// The author tag of a redo's commit.
    public static let redoAuthor = "ObjectGraph.redo"

    /// The most steps kept; the oldest are dropped beyond it. 0 keeps every step.
    public var levelsOfUndo: Int {
        didSet {
            require(levelsOfUndo >= 0, "GraphUndoManager.levelsOfUndo must not be negative, got \(levelsOfUndo)")
            trim()
        }
    }

    /// Authors whose commits are not recorded (a sync engine's, an importer's).
    public var nonUndoableAuthors: Set<String> = []

    /// The graph whose commits are recorded; set by ``ObjectGraph/undoManager``.
    internal weak var graph: ObjectGraph?
    internal var undoSteps: [_UndoStep] = []
    internal var redoSteps: [_UndoStep] = []
    /// The step being grouped, while ``groupingLevel`` is above 0.
    internal var openGroup: _UndoStep?
    /// How deep ``beginUndoGrouping()`` calls are nested.
    public private(set) var groupingLevel = 0
    internal var registrationDisabled = 0
    /// Set while an undo or redo commits, so its commit is recorded on the other stack.
    internal var replaying: _Replay?

    internal enum _Replay { case undo(String?), redo(String?) }
    /// Whether the commit of the undo or redo in progress recorded its reverse.
    private var replayRecorded = false

    /// Makes a manager; assign it to ``ObjectGraph/undoManager`` to start recording.
    ///
    /// - Parameter levelsOfUndo: The most steps kept; 0 (the default) keeps every step.
    /// - Complexity: O(1).
    public init(levelsOfUndo: Int = 0) {
        require(levelsOfUndo >= 0, "GraphUndoManager(levelsOfUndo:) must not be negative, got \(levelsOfUndo)")
        self.levelsOfUndo = levelsOfUndo
    }

    /// Whether a step can be undone (there is one; it may still throw a conflict).
    public var canUndo: Bool { !undoSteps.isEmpty }
    /// Whether a step can be redone.
    public var canRedo: Bool { !redoSteps.isEmpty }
    /// The action name of the step ``undo()`` would reverse, or `""`.
    public var undoActionName: String { undoSteps.last?.actionName ?? "" }
    /// The action name of the step ``redo()`` would reapply, or `""`.
    public var redoActionName: String { redoSteps.last?.actionName ?? "" }
    /// Whether commits are being recorded.
    public var isUndoRegistrationEnabled: Bool { registrationDisabled == 0 }

    /// Stops recording commits until a matching ``enableUndoRegistration()``; calls nest.
    ///
    /// - Complexity: O(1).
    public func disableUndoRegistration() { registrationDisabled += 1 }

    /// Resumes recording after ``disableUndoRegistration()``.
    ///
    /// - Complexity: O(1).
    public func enableUndoRegistration() {
        require(registrationDisabled > 0, "GraphUndoManager.enableUndoRegistration() without disableUndoRegistration()")
        registrationDisabled -= 1
    }

    /// Starts a group: every commit until the matching ``endUndoGrouping()`` becomes one
    /// step (a drag that commits twice undoes at once). Groups nest; the outermost counts.
    ///
    /// - Complexity: O(1).
    public func beginUndoGrouping() {
        groupingLevel += 1
    }

    /// Ends a group started by ``beginUndoGrouping()``; the outermost end pushes the step.
    ///
    /// - Complexity: O(1), or O(*s*) for *s* kept steps when the push drops the oldest step
    ///   beyond ``levelsOfUndo``.
    public func endUndoGrouping() {
        require(groupingLevel > 0, "GraphUndoManager.endUndoGrouping() without beginUndoGrouping()")
        groupingLevel -= 1
        guard groupingLevel == 0, let group = openGroup else { return }
        openGroup = nil
        push(group)
    }

    /// Names the step being grouped, or else the last step recorded.
    ///
    /// - Parameter name: The action's name, such as "Delete Milk".
    /// - Complexity: O(1).
    public func setActionName(_ name: String) {
        if let openGroup {
            openGroup.actionName = name
        } else {
            undoSteps.last?.actionName = name
        }
    }

    /// Forgets every step, undo and redo.
    ///
    /// - Complexity: O(*s*) for *s* steps, plus releasing the values they recorded.
    public func removeAllActions() {
        undoSteps.removeAll()
        redoSteps.removeAll()
        openGroup = nil
    }

    /// Reverses the last step, as one commit tagged ``undoAuthor``; its reverse becomes the
    /// step ``redo()`` reapplies. A step whose reverse changes nothing (a group that inserted
    /// an object and deleted it again) commits nothing, and still becomes redoable.
    ///
    /// - Throws: ``UndoError``: nothing to undo, pending changes, a conflict with a commit
    ///   that was not recorded, or the commit's error; nothing changes and the step stays.
    /// - Complexity: O(*k*) for *k* values the step recorded, plus the commit (a to-many
    ///   relationship the step changed is set whole when it is not back already).
    public func undo() throws(UndoError) {
        guard let step = undoSteps.last else { throw .nothingToUndo }
        try replay(step, as: .undo(step.actionName))
        undoSteps.removeLast()
    }

    /// Reapplies the step the last ``undo()`` reversed, as one commit tagged ``redoAuthor``.
    ///
    /// - Throws: ``UndoError``, as ``undo()``; nothing changes and the step stays.
    /// - Complexity: As ``undo()``.
    public func redo() throws(UndoError) {
        guard let step = redoSteps.last else { throw .nothingToRedo }
        try replay(step, as: .redo(step.actionName))
        redoSteps.removeLast()
    }

    /// The bytes the recorded steps hold, roughly: for a benchmark's report.
    package var approximateBytes: Int {
        (undoSteps + redoSteps).reduce(0) { $0 + $1.approximateBytes }
    }

    private func replay(_ step: _UndoStep, as mode: _Replay) throws(UndoError) {
        guard let graph else { throw .nothingToUndo }
        guard !graph.hasChanges else { throw .pendingChanges }
        guard step.conflicts.isEmpty else { throw .conflict(step.conflicts.sorted()) }
        replaying = mode
        replayRecorded = false
        defer { replaying = nil }
        do {
            try graph._reverse(step)
        } catch {
            throw .commitFailed(error)
        }
        // A commit that changed nothing (the undo of a group that inserted an object and
        // deleted it again) records nothing: its reverse, which changes nothing either,
        // still moves to the other stack.
        if !replayRecorded { record(_UndoStep(actionName: step.actionName)) }
    }

    /// Records a commit: on the redo stack for an undo, on the undo stack otherwise (which
    /// clears the redo stack, unless it is a redo).
    internal func record(_ step: _UndoStep) {
        switch replaying {
        case .undo(let name):
            step.actionName = name
            redoSteps.append(step)
            replayRecorded = true
        case .redo(let name):
            step.actionName = name
            undoSteps.append(step)
            replayRecorded = true
            trim()
        case nil:
            redoSteps.removeAll()
            if groupingLevel > 0 {
                if let openGroup {
                    openGroup.append(step)
                } else {
                    openGroup = step
                }
            } else {
                push(step)
            }
        }
    }

    /// Marks the steps a commit that is not recorded conflicts with.
    internal func noteUnrecorded(_ keys: Set<_UndoKey>) {
        guard !keys.isEmpty else { return }
        for step in undoSteps + redoSteps + (openGroup.map { [$0] } ?? []) where !step.keys.isDisjoint(with: keys) {
            for key in step.keys.intersection(keys) { step.conflicts.insert(key.objectID) }
        }
    }

    private func push(_ step: _UndoStep) {
        undoSteps.append(step)
        trim()
    }

    private func trim() {
        if levelsOfUndo > 0 && undoSteps.count > levelsOfUndo {
            undoSteps.removeFirst(undoSteps.count - levelsOfUndo)
        }
    }
}

@available(*, unavailable, message: "an undo manager belongs to its graph's isolation domain")
extension GraphUndoManager: Sendable {}

/// Why ``GraphUndoManager/undo()`` or ``GraphUndoManager/redo()`` did nothing.
public enum UndoError: Error, CustomStringConvertible {
    /// There is no step to undo.
    case nothingToUndo
    /// There is no step to redo.
    case nothingToRedo
    /// The graph has pending changes: commit or roll them back first.
    case pendingChanges
    /// Commits that were not recorded changed these objects' recorded properties (or
    /// deleted them) since the step: reversing it would overwrite them.
    case conflict([ObjectID])
    /// The commit of the undo or redo failed; the graph is as it was.
    case commitFailed(CommitError)

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .nothingToUndo: "there is nothing to undo"
        case .nothingToRedo: "there is nothing to redo"
        case .pendingChanges: "undo and redo need a graph without pending changes: commit or roll back first"
        case .conflict(let ids): "a later change that cannot be undone touched \(ids.map(\.description).joined(separator: ", ")); undoing would overwrite it"
        case .commitFailed(let error): "the commit failed: \(error)"
        }
    }
}
