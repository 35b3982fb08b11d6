import Foundation
import ListUpdates
import ObjectGraph

/// The engine of an ``OrderedResultsController``: a results engine whose rows are the
/// members of one object's ordered to-many relationship, sorted by section and then by an
/// order label that increases along the relationship.
///
/// Each member carries an order label, an integer increasing along the relationship with
/// gaps between neighbours; the label is the rows' sort key, so positions stay O(log n). A
/// commit relabels only the members that moved or arrived, between their new neighbours
/// (a neighbourhood is spread out again when a gap runs out), so moving k members of an
/// n-member relationship costs O(k log n), whatever n.
final class OrderedResultsEngine<Owner: GraphObject, Member: GraphObject>: ResultsEngine<Member> {
    /// The object whose relationship the engine shows.
    let owner: Owner
    /// The ordered to-many relationship shown, such as `\Playlist.songs`.
    let relationship: ReferenceWritableKeyPath<Owner, [Member]>

    let ownerID: ObjectID
    /// The relationship's property in the owner's entity.
    let relationshipProperty: PropertyIndex
    /// The relationship's name, as `OrderedMove.relationship` gives it.
    let relationshipName: String
    /// Reads the relationship without Observation or read tracking.
    let members: PropertyReader<Owner, [Member]>
    /// The order label of every member, filtered out or not: strictly increasing along the
    /// relationship.
    var labels: [ObjectID: Int64] = [:]
    /// The member-side property that holds the owner, when the controller found exactly one
    /// and every member holds the owner in it: it tells which members arrived or left.
    var inverseName: String?
    /// The user's edit whose commit is being delivered, set just before that commit.
    var userEdit: UserEdit?
    /// A section the list view still shows with no rows after a user-driven edit emptied it,
    /// until the delivery of that edit's commit deletes it: its position before that commit
    /// and its key value.
    var displayedEmptySection: (index: Int, value: SortValue)?

    /// The gap between the labels of neighbours after a fetch or a full relabel.
    static var labelSpacing: Int64 { 1 << 20 }
    /// The largest magnitude a label may take before every label is spread out again.
    static var labelLimit: Int64 { 1 << 61 }

    /// Creates an engine; the parameters are those of the controller's initializer. It holds
    /// no results until ``performFetch()``.
    ///
    /// - Complexity: O(p) for p properties of the owner's entity.
    init(
        graph: ObjectGraph,
        owner: Owner,
        relationship: ReferenceWritableKeyPath<Owner, [Member]>,
        predicate: FetchPredicate<Member>? = nil,
        sectionKey: SectionKey<Member>? = nil,
        displayedKeys: [PartialKeyPath<Member>]? = nil,
        totals: [AnyTotal<Member>] = []
    ) {
        guard let reader = PropertyReader(relationship as KeyPath<Owner, [Member]>) else {
            requirementFailure("OrderedResultsController: \(relationship) is not an ordered to-many @Relationship of \(Owner.self)")
        }
        require(owner.graph === graph, "OrderedResultsController: the owner \(owner.objectID) is not an object of this graph")
        self.owner = owner
        self.relationship = relationship
        ownerID = owner.objectID
        members = reader
        relationshipProperty = reader.property
        relationshipName = reader.name
        var request = FetchRequest(Member.self, predicate: predicate, sectionKey: sectionKey)
        request.displayedKeys = displayedKeys
        request.totals = totals
        super.init(graph: graph, request: request)
        index = Self.makeOrderedIndex(for: request)
    }

    override func emptyIndex(for request: FetchRequest<Member>) -> ResultsIndex<ObjectID> {
        Self.makeOrderedIndex(for: request)
    }

    override func reloadResults() {
        loadMembers()
        _checkOrderedInvariants()
    }

    /// An empty index whose rows sort by section, then by order label (and a tie-break
    /// column that places a row the user dropped next to a neighbour during one commit).
    static func makeOrderedIndex(for request: FetchRequest<Member>) -> ResultsIndex<ObjectID> {
        ResultsIndex(ascending: [true, true], sectionsAscending: request.sectionKey?.ascending ?? true)
    }

    /// Reads the relationship's members, labels them in order, evaluates them and starts
    /// observing the graph. Calling it again starts from scratch without reporting a change.
    ///
    /// - Complexity: O(n log n) for n members.
    override func performFetch() {
        withObservableMutation { loadMembers() }
        if observation == nil {
            observation = graph.addObserver { [weak self] changes in
                self?.relationshipDidCommit(changes)
            }
        }
        hasFetched = true
        _checkOrderedInvariants()
    }

    /// The members in relationship order, or none once the owner is deleted. A relationship
    /// without an inverse keeps the objects deleted since they were added (nothing tells the
    /// graph to take them out): they are not members.
    func currentMembers() -> [Member] {
        guard !owner.isDeleted else { return [] }
        let members = members(owner)
        guard inverseName == nil else { return members }
        return members.contains(where: \.isDeleted) ? members.filter { !$0.isDeleted } : members
    }

    /// Labels and evaluates every member and rebuilds the index and the dependencies.
    func loadMembers() {
        dependencies = DependencyIndex(entity: Member.entity)
        sectionNames = [:]
        displayedProperties = nil
        userEdit = nil
        displayedEmptySection = nil
        let list = currentMembers()
        labels = [:]
        totals = makeTotals()
        labels.reserveCapacity(list.count)
        dependencies.reserveCapacity(list.count)
        var rows = ResultsIndex<ObjectID>.LoadColumns(sortKeyCount: 2, capacity: list.count)
        var reads: [PropertyRead] = []
        for (position, member) in list.enumerated() {
            let id = member.objectID
            let label = Int64(position) * Self.labelSpacing
            labels[id] = label
            if let keys = evaluate(member, id: id, reads: &reads, first: true) {
                rows.ids.append(id)
                rows.sections.append(keys.section)
                rows.columns[0].append(.int(label))
                rows.columns[1].append(.int(0))
            }
        }
        dependencies.shrinkToFit()
        index = Self.makeOrderedIndex(for: _request)
        index.load(rows)
        if let sectionKey = _request.sectionKey {
            for (value, id) in index.firstIDOfEachSection() {
                sectionNames[value] = graph.withoutObservation { sectionKey.sectionName(object(with: id)) }
            }
        }
        inverseName = findInverse(of: list)
        computeTotalsAfterLoad()
        generation += 1
        cachedObjects = nil
    }

    /// The keys of a member with a label: its evaluated section, the label, and no tie-break.
    static func keys(_ evaluated: RowKeys, label: Int64) -> RowKeys {
        RowKeys(section: evaluated.section, sort: [.int(label), .int(0)])
    }
}
