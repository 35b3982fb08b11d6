import ObjectGraph

extension ResultsEngine {
    /// Applies a commit whose only effect on this engine is that one key of other objects,
    /// which only section keys read, was written — what renaming a related object that names
    /// a section does — when every row whose section key read it is fetched and the rows of
    /// each section it names take one new value, a section that did not exist: each section
    /// then moves as one block (``ResultsIndex/moveSections(_:reports:)``). Returns `false`,
    /// having changed nothing that matters, when the commit is not of that shape; the caller
    /// then takes the general path, which gives the same results.
    ///
    /// Every row's section key is read again, as the general path reads it: nothing is
    /// assumed from the key having been shared by a section's rows before (a key may read
    /// the row's own identity, or state no tracking sees). What the rows share is found by
    /// comparing the values read. The dependencies stand when the reads of each row's
    /// section key are all of `key`, the one key its entry names; a row whose reads differ
    /// sends the commit to the general path, which records them.
    ///
    /// The changes equal those of the general path: the old section deleted, the new one
    /// inserted, and every row moved between them (refreshed unless the request declares the
    /// keys its cells display).
    ///
    /// - Parameters:
    ///   - serials: The entity serials of the objects whose evaluation read `key`, each once.
    ///   - key: The written key, which only section keys read.
    /// - Returns: Whether the commit was applied (and delivered, when it changed anything).
    /// - Complexity: O(k + s log s + b log n) for k rows, s sections and b moved sections,
    ///   plus the cost of k section keys.
    func commitSectionRenames(_ serials: [UInt32], key: DependencyKey) -> Bool {
        let extractors = extractors
        guard let extract = extractors.section, !followsSource,
              index.offset == 0, index.limit == nil,
              let expectedEntry = dependencies.entry(ofOnlyKey: key) else { return false }
        let entity = Object.entity
        let graph = graph

        // The first pass: each row's slot and section, and its dependency entry, in a tight
        // loop so that their cache misses overlap; the objects' first lines are asked for.
        var rows: [RenamedRow] = []
        rows.reserveCapacity(serials.count)
        do {
            // Locals: a read through the class's property copies the structure per call.
            let index = index
            let dependencies = dependencies
            for serial in serials {
                let id = graph.objectID(of: entity, entitySerial: Int(serial))
                guard let slot = index.slots[id], dependencies.entry(of: id) == expectedEntry else { return false }
                graph.prefetchObject(with: id, lines: 2)
                rows.append(RenamedRow(id: id, handle: index.keys.sectionOf[Int(slot)]))
            }
        }

        // The second pass: every row's section key, grouped by the section the row is in.
        var blocks: [RenamedBlock] = []
        // The block of each section handle met so far, once there are more than a few (a
        // search among a few costs less than hashing, and a rename usually makes one).
        // Looked up only when a row's section is not the previous row's.
        var blockOfHandle: [Int32: Int] = [:]
        let fewBlocks = 8
        var current = -1
        var reads: [PropertyRead] = []
        var ownProperties: UInt64 = 0
        // Recorded once, whatever the outcome: they are reads the section key made.
        defer { dependencies.recordOwnReads(ownProperties) }
        for row in rows {
            guard let object = graph.object(with: row.id) as? Object else { return false }
            let erased: GraphObject = object
            // One by one: `removeAll(keepingCapacity:)` costs a general range replacement.
            while !reads.isEmpty { reads.removeLast() }
            let value = graph.trackReads(of: erased, ownProperties: &ownProperties, appendingTo: &reads) { extract(erased) }
            // Own reads past the bits would need recording, and any other key is new.
            for read in reads where read.objectID != key.object || read.property != key.property { return false }
            if current < 0 || blocks[current].handle != row.handle {
                let handle = row.handle
                if let block = blocks.count <= fewBlocks ? blocks.firstIndex(where: { $0.handle == handle }) : blockOfHandle[handle] {
                    current = block
                } else {
                    current = blocks.count
                    blocks.append(RenamedBlock(handle: handle, value: value, rows: 0, object: object))
                    if blocks.count > fewBlocks {
                        if blockOfHandle.isEmpty {
                            for (position, block) in blocks.enumerated() { blockOfHandle[block.handle] = position }
                        } else {
                            blockOfHandle[handle] = current
                        }
                    }
                }
            }
            // Equal values read from one attribute share their storage: compared without
            // reading their bytes.
            guard blocks[current].value == value else { return false }
            blocks[current].rows += 1
        }

        // Each block must be its whole section, taking a value no section has, or keep its
        // value (its rows stay where they are, and report nothing).
        var renames: [SectionRename] = []
        var newValues: Set<SortValue> = []
        for block in blocks where index.keys.sectionValues[Int(block.handle)] != block.value {
            guard block.rows == index.sectionCounts[Int(block.handle)], index.existingHandle(of: block.value) == nil,
                  newValues.insert(block.value).inserted else { return false }
            renames.append(SectionRename(handle: block.handle, value: block.value))
        }
        guard !renames.isEmpty else { return true }
        for block in blocks where newValues.contains(block.value) {
            nameSectionIfNew(block.value, of: unsafeDowncast(block.object, to: Object.self), extractors: extractors)
        }
        // A row whose keys changed because of a related object refreshes, unless the request
        // says what its cells display (and this commit wrote none of it).
        let reports: ResultsIndex<ObjectID>.MovedRowReports = displayedProperties == nil ? .all : .none
        let renamedValues = renames.map { (index.keys.sectionValues[Int($0.handle)], $0.value) }
        let holders = takeIndexFromFollowers()
        let diff = index.moveSections(renames, reports: reports)
        moveTotals(ofRenamedSections: renamedValues)
        returnIndex(to: holders, diff: diff, undo: holders.isEmpty ? [] : undoingBlockMoves(diff))
        sectionRenameCommits += 1
        deliver(diff)
        return true
    }

    /// What undoes the block moves of a diff on this engine's index: each moved row with its
    /// old section value and the sort keys it kept.
    ///
    /// - Complexity: O(k) for k moved rows.
    func undoingBlockMoves(_ diff: IndexDiff<ObjectID>) -> [ResultsIndex<ObjectID>.Change] {
        var undo: [ResultsIndex<ObjectID>.Change] = []
        for block in diff.blockMoves {
            for id in block.ids {
                undo.append(.init(id: id, keys: RowKeys(section: block.oldValue, sort: SortValues([])), reportsUpdate: false, keepsSortKeys: true))
            }
        }
        return undo
    }
}

/// A row whose section key a rename makes the engine read again
/// (``ResultsEngine/commitSectionRenames(_:key:)``).
private struct RenamedRow {
    /// The row's object.
    var id: ObjectID
    /// The handle of its section before the commit.
    var handle: Int32
}

/// The rows of one section whose section keys a rename made the engine read again, so far.
private struct RenamedBlock {
    /// The section's handle.
    var handle: Int32
    /// The value its rows read.
    var value: SortValue
    /// How many of its rows read it.
    var rows: Int
    /// One of those rows, to name the section from.
    var object: GraphObject
}
