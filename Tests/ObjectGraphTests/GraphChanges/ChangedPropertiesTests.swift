import ObjectGraph
import Testing
import TestSupport

/// `indexes` and `forEachIndex(_:)` list the same changed properties, ascending, on both sides
/// of the 64-bit boundary (the `Wide` entity has 66 attributes).
@Suite("Changed properties")
struct ChangedPropertiesTests {
    @Test(arguments: testSeeds(count: 8))
    func indexesAndForEachIndexAgree(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let entity = Wide.entity
        let count = entity.properties.count
        #expect(count > 64)
        var changed = ChangedProperties(entity: entity)
        var expected = Set<Int>()
        for _ in 0..<Int.random(in: 0...20, using: &rng) {
            let index = Int.random(in: 0..<count, using: &rng)
            changed.insert(PropertyIndex(index))
            expected.insert(index)
        }
        var visited: [PropertyIndex] = []
        changed.forEachIndex { visited.append($0) }
        #expect(visited == expected.sorted().map(PropertyIndex.init))
        #expect(changed.indexes == visited)
        #expect(changed.isEmpty == expected.isEmpty)
    }
}
