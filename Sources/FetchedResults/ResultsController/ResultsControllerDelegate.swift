import Foundation

/// The object a controller (a ``ResultsController``, ``SearchController`` or
/// ``OrderedResultsController``) tells about each change of its results, in Core Data's
/// order: `controllerWillChangeContent`, the section changes, the object changes,
/// `controllerDidChangeContent`, then the whole batch at once.
///
/// Each callback names the controller as `any SectionedResults<Object>`, so one delegate
/// serves every kind of controller; compare it with `===` to tell several apart.
///
/// Every method has an empty default implementation. During a callback the controller
/// already holds the new results, so the delegate may read it; a delegate may also write to
/// the graph, and those writes arrive as the next change after this one has been delivered.
public protocol ResultsControllerDelegate<Object>: AnyObject {
    /// The type of object in the controller's results.
    associatedtype Object: GraphObject

    /// The controller is about to report the changes of one commit.
    ///
    /// - Parameter controller: The controller.
    func controllerWillChangeContent(_ controller: any SectionedResults<Object>)

    /// A section appeared or disappeared.
    ///
    /// - Parameters:
    ///   - controller: The controller.
    ///   - change: The section change, with its position in the matching index space.
    func controller(_ controller: any SectionedResults<Object>, didChange change: ResultsSectionChange)

    /// An object's row was inserted, deleted, moved or updated.
    ///
    /// A move's two index paths can be equal (see ``ResultsObjectChange/move(_:from:to:contentChanged:)``):
    /// it is still a move. A `ChangeAccumulator` fed from this callback must read positions
    /// exactly (`eventInterpretation: .exact`); the whole-batch callback needs no such care.
    ///
    /// - Parameters:
    ///   - controller: The controller.
    ///   - change: The object change, with index paths in the matching index spaces.
    func controller(_ controller: any SectionedResults<Object>, didChange change: ResultsObjectChange)

    /// The controller reported every change of the commit.
    ///
    /// - Parameter controller: The controller.
    func controllerDidChangeContent(_ controller: any SectionedResults<Object>)

    /// The changes of the commit as one general `ListChanges`, after the other callbacks.
    /// Call `staged()` on it for batches a list view accepts.
    ///
    /// - Parameters:
    ///   - controller: The controller.
    ///   - changes: The section and row changes of the commit.
    func controller(_ controller: any SectionedResults<Object>, didChangeContentWith changes: ListChanges)
}

extension ResultsControllerDelegate {
    public func controllerWillChangeContent(_ controller: any SectionedResults<Object>) {}
    public func controller(_ controller: any SectionedResults<Object>, didChange change: ResultsSectionChange) {}
    public func controller(_ controller: any SectionedResults<Object>, didChange change: ResultsObjectChange) {}
    public func controllerDidChangeContent(_ controller: any SectionedResults<Object>) {}
    public func controller(_ controller: any SectionedResults<Object>, didChangeContentWith changes: ListChanges) {}
}
