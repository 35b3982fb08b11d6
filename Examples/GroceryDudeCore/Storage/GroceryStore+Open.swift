import Foundation
import FetchedResultsKit

/// Why the groceries could not be opened. The command prints it and exits with
/// ``exitStatus``; the app never starts on a list it could not read.
public enum StoreOpenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Another process has the store open without sharing it (a program that opened it
    /// `.exclusive`, or a `grocery-dude` from before stores were shared).
    case locked(path: String)
    /// The store cannot be opened (not a Grocery Dude store, another schema, unreadable),
    /// or could not be salvaged.
    case unusable(path: String, reason: String)

    /// The exit status: 3 for a locked store, 4 for one that cannot be opened.
    public var exitStatus: Int32 {
        switch self {
        case .locked: 3
        case .unusable: 4
        }
    }

    /// What to tell the user.
    public var description: String {
        switch self {
        case .locked(let path):
            "the grocery list at \(path) is already open in another program that does not share it (an older grocery-dude?); quit that one first (or use --store DIR for another list, --in-memory for none)"
        case .unusable(let path, let reason):
            "cannot open the grocery list at \(path): \(reason); nothing was changed there (use --store DIR for another list, --in-memory for none)"
        }
    }
}

extension GroceryStore {
    /// What opening a kept store found, for the user.
    public struct OpenNotice: Sendable, Hashable {
        /// The whole story, for standard error (before the screen starts): what was damaged,
        /// the salvage report, where the damaged files were kept.
        public var details: [String]
        /// One line for the status line of the first frame.
        public var status: String
        /// What happened, in a shopper's words (items and changes, not records), for the panel
        /// the app shows until it is dismissed.
        public var panel: [String]
    }

    /// The classes the Grocery Dude store keeps.
    public static let storeSchema: StoreSchema = {
        do {
            return try StoreSchema([Item.self, Location.self, Aisle.self])
        } catch {
            preconditionFailure("internal inconsistency: the grocery classes cannot be stored: \(error)")
        }
    }()

    /// Opens the groceries kept in a directory: the store there, created (and seeded, in one
    /// durable commit) when there is none.
    ///
    /// The store is opened shared (`GraphStore.Sharing.shared`): other `grocery-dude`
    /// windows and commands may have it open at the same time; each commit first applies
    /// theirs, and ``GroceryApp/refreshFromStore()`` shows them between commits.
    ///
    /// A damaged store is first refused, then opened again in salvage mode: every intact
    /// change is kept, the damaged files are kept beside it, and the notice says what was
    /// lost. A salvaged store is never seeded again, even when nothing survived: the user
    /// sees what is left and the report.
    ///
    /// - Parameter directory: The store's directory.
    /// - Returns: The groceries, and a notice when the store was damaged (`nil` otherwise).
    /// - Throws: ``StoreOpenError``: locked by another process, or unusable.
    /// - Complexity: O(n + j) for n saved objects and j journal bytes.
    public static func open(at directory: URL) throws(StoreOpenError) -> (store: GroceryStore, notice: OpenNotice?) {
        let path = directory.path
        func failure(_ error: GraphStoreError) -> StoreOpenError {
            if case .locked = error { return .locked(path: path) }
            return .unusable(path: path, reason: error.description)
        }
        do {
            let durable = try GraphStore.open(at: directory, schema: storeSchema, options: GraphStore.Options(recovery: .refuse, sharing: .shared))
            let store = GroceryStore(graph: durable.graph, seedIfEmpty: true, durableStore: durable)
            // A clean open may still have dropped a change: the one being saved when the app
            // stopped.
            return (store, droppedChangeNotice(report: durable.openReport))
        } catch {
            switch error {
            case .damaged, .corruptRecord: break
            default: throw failure(error)
            }
            let durable: GraphStore
            do {
                durable = try GraphStore.open(at: directory, schema: storeSchema, options: GraphStore.Options(recovery: .salvage, sharing: .shared))
            } catch let salvage {
                throw failure(salvage)
            }
            let report = durable.openReport
            let store = GroceryStore(graph: durable.graph, seedIfEmpty: false, durableStore: durable)
            return (store, damageNotice(path: path, damage: error, report: report, itemsLeft: store.items.count))
        }
    }

    /// The notice for a clean open that dropped an unfinished change, or `nil` when it dropped
    /// nothing.
    static func droppedChangeNotice(report: GraphStore.OpenReport) -> OpenNotice? {
        let panel = report.droppedCommits.map(Self.sentence(for:))
        guard let first = panel.first else { return nil }
        return OpenNotice(details: ["grocery-dude: \(report)"], status: first, panel: panel)
    }

    /// What a shopper calls a change: its action ("List Milk"), an import, an undo, or its
    /// items.
    static func name(of commit: GraphStore.DroppedCommit) -> String {
        if let action = commit.actionName { return "your change “\(action)”" }
        if commit.author == GraphUndoManager.undoAuthor { return "an undo" }
        if commit.author == GraphUndoManager.redoAuthor { return "a redo" }
        guard let changes = commit.changes else {
            // The start of a large record (an import) may say how many objects it added.
            if let added = commit.insertedFromSurvivingStart, added > 1 {
                return "the change that added \(plural(added, "item"))"
            }
            // Its bytes are gone: only the last, unfinished one is known to be the user's last.
            return commit.cause == .unfinishedWrite ? "your last change" : "a change"
        }
        let items = commit.changesByEntity["Item"] ?? GraphStore.ChangeCounts()
        if commit.author == importAuthor { return "the import of \(plural(items.inserted, "item"))" }
        var parts: [String] = []
        if items.inserted > 0 { parts.append("added \(plural(items.inserted, "item"))") }
        if items.updated > 0 { parts.append("changed \(plural(items.updated, "item"))") }
        if items.deleted > 0 { parts.append("deleted \(plural(items.deleted, "item"))") }
        if parts.isEmpty { return changes.total > 0 ? "a change to the list's places" : "a change" }
        return "the change that " + parts.joined(separator: " and ")
    }

    /// One sentence on one dropped change, in a shopper's words.
    static func sentence(for commit: GraphStore.DroppedCommit) -> String {
        let what = name(of: commit)
        let why: String =
            switch commit.cause {
            case .unfinishedWrite: "was not saved: grocery-dude stopped while saving it"
            case .unsynced: "was not saved before the computer stopped"
            case .damaged, .unreadable: "was lost: that part of the list's file is damaged"
            case .cutOff: "was lost: the list's file was cut short"
            case .journalMissing: "was lost: the list's journal file is missing"
            case .followsDamage: "was set aside: it comes after a damaged part of the file"
            }
        return what.prefix(1).uppercased() + what.dropFirst() + " " + why + "."
    }

    /// "1 item", "5,000 items".
    static func plural(_ count: Int, _ noun: String) -> String {
        var digits = String(count.magnitude)
        var position = digits.count - 3
        while position > 0 {
            digits.insert(",", at: digits.index(digits.startIndex, offsetBy: position))
            position -= 3
        }
        return "\(count < 0 ? "-" : "")\(digits) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The panel for a damaged store: every loss in a shopper's words, then what is left.
    static func damagePanel(report: GraphStore.OpenReport, itemsLeft: Int) -> [String] {
        var lines: [String] = []
        if let snapshot = report.lostSnapshot {
            let items = snapshot.objectsByEntity?["Item"].map { plural($0, "item") } ?? "the items"
            lines.append("The list's main file is missing: \(items) saved in it could not be read.")
        }
        for file in report.missingFiles where !(file == "snapshot" && report.lostSnapshot != nil) {
            lines.append("The list's \(file) file is missing.")
        }
        let dropped = report.droppedCommits
        for commit in dropped.prefix(4) { lines.append(sentence(for: commit)) }
        if dropped.count > 4 { lines.append("\(plural(dropped.count - 4, "more change")) were lost too.") }
        if report.unknownCommitsLostAfter != nil { lines.append("Later changes were lost too; how many is not known.") }
        if report.readWithAppSchema {
            lines.append("The part of the file that says what the list holds was damaged; the rest was read.")
        }
        let lostItems = report.lostObjects.filter { $0.hasPrefix("Item") }.count
        if lostItems > 0 { lines.append("\(plural(lostItems, "item")) could not be recovered.") }
        if lines.isEmpty { lines.append("Part of the list's file was damaged and repaired.") }
        lines.append("Your list now has \(plural(itemsLeft, "item")). The damaged files are kept beside it.")
        return lines
    }

    /// The notice for a store that was damaged and salvaged.
    static func damageNotice(path: String, damage: GraphStoreError, report: GraphStore.OpenReport, itemsLeft: Int) -> OpenNotice {
        let lostChanges = report.lostSequences.reduce(0) { $0 + Int(clamping: $1.upperBound - $1.lowerBound) + 1 }
        let details = [
            "grocery-dude: the grocery list at \(path) is damaged: \(damage)",
            "grocery-dude: opened it again in salvage mode, keeping every intact change:",
        ] + report.description.split(separator: "\n").map { "  \($0)" }
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var lost: [String] = []
        if lostChanges > 0 { lost.append(plural(lostChanges, "change")) }
        if !report.lostObjects.isEmpty { lost.append(plural(report.lostObjects.count, "object")) }
        let status = "repaired a damaged list: lost \(lost.isEmpty ? "nothing" : lost.joined(separator: ", ")); "
            + "\(plural(itemsLeft, "item")) kept (see standard error)"
        return OpenNotice(details: details, status: status, panel: damagePanel(report: report, itemsLeft: itemsLeft))
    }
}
