import Foundation
import GroceryDudeCore
import Testing

@Suite("Grocery Dude, where the list is kept")
struct StorageLocationTests {
    @Test func interactiveRunsKeepTheListUnderXDGDataHome() {
        let location = StorageLocation.resolve(
            .automatic, interactive: true, environment: ["XDG_DATA_HOME": "/data/me", "HOME": "/home/me"])
        #expect(location == .directory(URL(fileURLWithPath: "/data/me/grocery-dude", isDirectory: true)))
    }

    @Test(arguments: [nil, "", "relative/data"])
    func withoutAnAbsoluteXDGDataHomeTheListIsUnderTheHomeFolder(xdg: String?) {
        var environment = ["HOME": "/home/me"]
        environment["XDG_DATA_HOME"] = xdg
        let location = StorageLocation.resolve(.automatic, interactive: true, environment: environment)
        #expect(location == .directory(URL(fileURLWithPath: "/home/me/.local/share/grocery-dude", isDirectory: true)))
    }

    @Test func withoutATerminalNothingIsKeptUnlessAStoreIsNamed() {
        let environment = ["XDG_DATA_HOME": "/data/me", "HOME": "/home/me"]
        #expect(StorageLocation.resolve(.automatic, interactive: false, environment: environment) == .inMemory)
        #expect(
            StorageLocation.resolve(.directory("/lists/a"), interactive: false, environment: environment)
                == .directory(URL(fileURLWithPath: "/lists/a", isDirectory: true)))
    }

    @Test func inMemoryKeepsNothingEvenOnATerminal() {
        #expect(StorageLocation.resolve(.inMemory, interactive: true, environment: ["XDG_DATA_HOME": "/data/me"]) == .inMemory)
        #expect(
            StorageLocation.resolve(.directory("/lists/b"), interactive: true, environment: ["XDG_DATA_HOME": "/data/me"])
                == .directory(URL(fileURLWithPath: "/lists/b", isDirectory: true)))
    }
}
