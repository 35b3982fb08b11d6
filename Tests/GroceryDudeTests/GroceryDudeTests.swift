import GroceryDudeCore
import Testing

@Suite("Grocery Dude")
struct GroceryDudeTests {
    @Test func title() {
        #expect(appTitle == "Grocery Dude")
    }
}
