import Testing
import TestSupport

@Suite("Test support")
struct SeededGeneratorTests {
    @Test func sameSeedSameSequence() {
        var a = SeededGenerator(seed: 42)
        var b = SeededGenerator(seed: 42)
        var c = SeededGenerator(seed: 43)
        let first = (0..<8).map { _ in a.next() }
        #expect(first == (0..<8).map { _ in b.next() })
        #expect(first != (0..<8).map { _ in c.next() })
    }

    @Test func seedsAreStable() {
        #expect(testSeeds(count: 3) == testSeeds(count: 3))
    }
}
