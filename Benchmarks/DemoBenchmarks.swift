import Foundation
import GroceryDudeCore

/// The Grocery Dude app with 50,000 items (the seed plus an import), on an 80×24 terminal,
/// built once and shared by the demo rows.
@MainActor
private final class DemoFixture {
    static let itemCount = 50_000
    static var shared: DemoFixture?

    let app: GroceryApp
    var updater = ScreenUpdater()

    static func make() -> DemoFixture {
        if let shared { return shared }
        let fixture = DemoFixture()
        shared = fixture
        return fixture
    }

    private init() {
        app = GroceryDudeCommand.makeApp(size: TerminalSize(width: 80, height: 24))
        let store = app.store
        let count = Self.itemCount - store.items.count
        do {
            let items = try ImportJob.build(
                count: count, locations: store.locations.map(\.name), aisles: store.aisles.map(\.name), report: { _ in })
            try store.commitImport(items)
        } catch {
            fatalError("demo fixture: the import failed: \(error)")
        }
        app.clearMarks()
        precondition(app.store.items.count == Self.itemCount, "demo fixture: \(app.store.items.count) items")
        _ = updater.update(to: app.render(styled: true))
    }

    /// One Down (Up at the end of the list) and the output that shows it: what the
    /// interactive session does for a keystroke.
    func keystroke() -> String {
        let screen = app.visibleScreen
        app.press(screen.cursor == screen.totalRows - 1 ? .home : .down)
        return updater.update(to: app.render(styled: true))
    }

    /// Enter on the selected item (it goes on the shopping list or comes off it) and the output
    /// that shows it: the commit, the flush that animates the visible list, and the drawing.
    func toggle() -> String {
        app.press(.enter)
        return updater.update(to: app.render(styled: true))
    }

    /// The same toggle with the visible list's rows all read again, as the screen did before
    /// it kept only its sections: one identity per item of the list.
    func wholeListToggle() -> String {
        app.press(.enter)
        let list = app.visibleScreen.list
        var count = 0
        for summary in list.sectionSummaries.enumerated() {
            for row in 0..<summary.element.rowCount {
                if list.item(at: IndexPath(row: row, section: summary.offset)) != nil { count += 1 }
            }
        }
        return updater.update(to: app.render(styled: true)) + "\(count)"
    }

    /// The same keystroke drawn the way the session drew before: the title counts every item,
    /// and the whole screen is written.
    func wholeFrameKeystroke() -> String {
        let screen = app.visibleScreen
        app.press(screen.cursor == screen.totalRows - 1 ? .home : .down)
        let items = app.store.items
        let listed = items.reduce(0) { $0 + ($1.listed ? 1 : 0) }
        var whole = ScreenUpdater()
        return whole.update(to: app.render(styled: true)) + "\(items.count) \(listed)"
    }
}

/// Rows timing the demo app's interactive paths.
func demoBenchmarks() -> [Benchmark] {
    [
        Benchmark(
            "demo.keystroke.50k",
            baseline: "the same move drawn as before: the title counts all 50,000 items and the whole screen is written",
            runs: 9
        ) {
            // The harness runs on the main thread; the app belongs to the main actor.
            let fixture = MainActor.assumeIsolated { DemoFixture.make() }
            return .init(
                subject: { stopwatch in
                    MainActor.assumeIsolated { _ = stopwatch.measure { fixture.keystroke() } }
                },
                baseline: { stopwatch in
                    MainActor.assumeIsolated { _ = stopwatch.measure { fixture.wholeFrameKeystroke() } }
                })
        },
        Benchmark(
            "demo.toggle.50k",
            baseline: "the same toggle with every row of the list read again, as the screen did before",
            runs: 9
        ) {
            let fixture = MainActor.assumeIsolated { DemoFixture.make() }
            return .init(
                subject: { stopwatch in
                    MainActor.assumeIsolated { _ = stopwatch.measure { fixture.toggle() } }
                },
                baseline: { stopwatch in
                    MainActor.assumeIsolated { _ = stopwatch.measure { fixture.wholeListToggle() } }
                })
        },
    ]
}
