import Foundation
import FetchedResultsKit
import GroceryDudeCore
import Testing

/// One kept list used by a window and by the `list`, `add`, `tick` and `delete` commands, or
/// by two windows, at once, in this process: every store lives in a temporary directory and
/// is opened shared, as the command opens it.
@Suite("Grocery Dude, one list in several windows", .serialized)
@MainActor
struct SharedListTests {
    struct Run {
        var status: Int32
        var output: [String]
        var errors: [String]
    }

    /// Runs `grocery-dude` with these arguments (and `--store directory`), in this process.
    func run(_ arguments: [String], store directory: URL) async -> Run {
        var output: [String] = []
        var errors: [String] = []
        let status = await GroceryDudeCommand.run(
            arguments: arguments + ["--store", directory.path], environment: [:], output: { output.append($0) },
            errors: { errors.append($0) })
        return Run(status: status, output: output, errors: errors)
    }

    /// A window on the list in `directory`: its store opened shared, and the app over it.
    func openWindow(_ directory: URL) throws -> GroceryApp {
        let (store, _) = try GroceryStore.open(at: directory)
        return GroceryApp(store: store, size: .script)
    }

    @Test func theCommandsChangeTheListAWindowShows() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try openWindow(directory)
        defer { app.store.close() }
        let prepare = app.screen(for: .prepare)

        let add = await run(["add", "Oat milk"], store: directory)
        #expect(add.status == 0, "\(add.errors)")
        #expect(add.output == ["added Oat milk to the shopping list"])
        #expect(app.store.item(named: "Oat milk") == nil, "nothing shows before the window looks")
        let batches = prepare.batchCount
        #expect(app.refreshFromStore())
        let oatMilk = try #require(app.store.item(named: "Oat milk"))
        #expect(oatMilk.listed)
        #expect(names(prepare.list)["No location"] == ["Oat milk"])
        #expect(prepare.batchCount == batches + 1, "the change animates")
        #expect(prepare.marked == [oatMilk.objectID])
        #expect(app.statusLine.contains("Oat milk added by grocery-dude add"), "\(app.statusLine)")
        #expect(!app.refreshFromStore(), "nothing more to show")

        let tick = await run(["tick", "milk"], store: directory)
        #expect(tick.status == 0, "\(tick.errors)")
        #expect(tick.output == ["ticked Milk off the shopping list"])
        #expect(app.refreshFromStore())
        #expect(app.store.item(named: "Milk")?.listed == false)
        #expect(app.statusLine.contains("Milk ticked off by grocery-dude tick"), "\(app.statusLine)")
        #expect(app.statusLine.contains("Shop list updated"), "the hidden list owes a reload: \(app.statusLine)")

        let delete = await run(["delete", "Oat milk"], store: directory)
        #expect(delete.status == 0, "\(delete.errors)")
        #expect(delete.output == ["deleted Oat milk"])
        #expect(app.refreshFromStore())
        #expect(app.store.item(named: "Oat milk") == nil)
        #expect(names(prepare.list)["No location"] == nil)
        #expect(app.statusLine.contains("Oat milk deleted by grocery-dude delete"), "\(app.statusLine)")

        // The window's list is the list from scratch; `list` prints the same, section by section.
        #expect(names(prepare.list) == referenceNames(app.store, kind: .prepare, search: ""))
        let list = await run(["list"], store: directory)
        #expect(list.status == 0, "\(list.errors)")
        var printed: [String: [String]] = [:]
        var section = ""
        for line in list.output.dropLast() {
            if line.hasPrefix("  [") {
                printed[section, default: []].append(String(line.dropFirst(6)))
            } else {
                section = String(line[..<(line.lastIndex(of: " ") ?? line.endIndex)])
            }
        }
        #expect(printed == names(prepare.list))
        #expect(list.output.contains("  [ ] Milk"))
        #expect(list.output.contains("  [x] Eggs"))
        #expect(list.output.last == "\(GroceryStore.seed.count) items · \(app.store.items.filter(\.listed).count) listed")
    }

    @Test func aMissingNameOrAnUnknownItemFails() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let tick = await run(["tick", "Caviar"], store: directory)
        #expect(tick.status == 1)
        #expect(tick.errors == ["grocery-dude tick: no item is called \"Caviar\""])
        #expect(tick.output.isEmpty)
        let delete = await run(["delete", "Caviar"], store: directory)
        #expect(delete.status == 1)
        let add = await run(["add"], store: directory)
        #expect(add.status == 2)
        #expect(add.errors.first?.contains("add needs a NAME") == true, "\(add.errors)")
        let memory = await run(["list", "--in-memory"], store: directory)
        #expect(memory.status == 2, "the store option given twice")
    }

    @Test func twoWindowsStayInStep() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try openWindow(directory)
        defer { first.store.close() }
        let second = try openWindow(directory)
        defer { second.store.close() }
        #expect(second.store.items.count == first.store.items.count, "the second window did not seed again")

        first.add(name: "Oat milk")
        #expect(second.refreshFromStore())
        #expect(second.store.item(named: "Oat milk") != nil)
        #expect(second.statusLine.contains("Oat milk added in another window"), "\(second.statusLine)")

        // A change of the second window first shows the first's change it had not seen.
        first.select(named: "Cheddar")
        first.toggleSelected()
        second.select(named: "Butter")
        second.toggleSelected()
        #expect(second.statusLine.contains("listed Butter"), "\(second.statusLine)")
        #expect(second.statusLine.contains("Cheddar put on the shopping list in another window"), "\(second.statusLine)")
        #expect(first.refreshFromStore())
        #expect(first.statusLine.contains("Butter put on the shopping list in another window"), "\(first.statusLine)")
        #expect(names(first.screen(for: .prepare).list) == names(second.screen(for: .prepare).list))
    }

    @Test func aChangeToAnItemChangedElsewhereIsRefusedAndTheirsIsShown() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try openWindow(directory)
        defer { first.store.close() }
        let second = try openWindow(directory)
        defer { second.store.close() }

        first.select(named: "Milk")
        first.renameSelected(to: "Oat milk")
        second.select(named: "Milk")
        second.renameSelected(to: "Whole milk")
        #expect(
            second.statusLine.contains("Milk changed in another window meanwhile: your change was not saved"),
            "\(second.statusLine)")
        #expect(second.store.item(named: "Oat milk") != nil, "the window shows the change that was saved")
        #expect(second.store.item(named: "Whole milk") == nil)
        #expect(!second.store.graph.hasChanges)
        #expect(names(second.screen(for: .prepare).list) == referenceNames(second.store, kind: .prepare, search: ""))
        // The window goes on working.
        second.select(named: "Oat milk")
        second.renameSelected(to: "Whole milk")
        #expect(second.statusLine.contains("renamed Oat milk to Whole milk"), "\(second.statusLine)")
    }

    @Test func anUndoOfAnItemChangedElsewhereIsRefused() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try openWindow(directory)
        defer { first.store.close() }
        let second = try openWindow(directory)
        defer { second.store.close() }

        first.select(named: "Cheddar")
        first.toggleSelected()
        #expect(second.refreshFromStore())
        second.select(named: "Cheddar")
        second.toggleSelected()
        #expect(second.statusLine.contains("unlisted Cheddar"), "\(second.statusLine)")
        first.undo()
        #expect(first.statusLine.contains("cannot undo List Cheddar"), "\(first.statusLine)")
        #expect(first.statusLine.contains("another window"), "\(first.statusLine)")
        #expect(first.store.item(named: "Cheddar")?.listed == false, "the other window's change was not overwritten")
    }
}
