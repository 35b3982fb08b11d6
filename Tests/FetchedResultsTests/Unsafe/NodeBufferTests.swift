@testable import FetchedResults
import Synchronization
import Testing
import TestSupport

/// Counts the instances alive, so a test sees every element a buffer held released exactly
/// once.
private final class Tracked {
    static let alive = Atomic<Int>(0)
    let value: Int

    init(_ value: Int) {
        self.value = value
        Self.alive.add(1, ordering: .relaxed)
    }

    deinit { Self.alive.subtract(1, ordering: .relaxed) }
}

@Suite("NodeBuffer", .serialized)
struct NodeBufferTests {
    /// Random edits applied to a buffer and to an array side by side leave the same elements,
    /// and every object the buffer held is released once it is gone.
    @Test(arguments: testSeeds(count: 6))
    func matchesAnArray(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let aliveBefore = Tracked.alive.load(ordering: .relaxed)
        do {
            var buffer = NodeBuffer<Tracked>()
            var model: [Tracked] = []
            var next = 0
            func make(_ count: Int) -> [Tracked] {
                defer { next += count }
                return (next..<(next + count)).map(Tracked.init)
            }
            for step in 0..<2_000 {
                switch Int.random(in: 0..<8, using: &rng) {
                case 0:
                    let element = make(1)[0]
                    buffer.append(element)
                    model.append(element)
                case 1:
                    let index = Int.random(in: 0...model.count, using: &rng)
                    let element = make(1)[0]
                    buffer.insert(element, at: index)
                    model.insert(element, at: index)
                case 2:
                    let index = Int.random(in: 0...model.count, using: &rng)
                    let elements = make(Int.random(in: 0..<20, using: &rng))
                    buffer.insert(contentsOf: elements, at: index)
                    model.insert(contentsOf: elements, at: index)
                case 3 where !model.isEmpty:
                    let index = Int.random(in: 0..<model.count, using: &rng)
                    #expect(buffer.remove(at: index) === model.remove(at: index))
                case 4:
                    let low = Int.random(in: 0...model.count, using: &rng)
                    let high = Int.random(in: low...min(model.count, low + 30), using: &rng)
                    buffer.removeSubrange(low..<high)
                    model.removeSubrange(low..<high)
                case 5 where !model.isEmpty:
                    let index = Int.random(in: 0..<model.count, using: &rng)
                    let element = make(1)[0]
                    buffer[index] = element
                    model[index] = element
                case 6 where model.count > 40:
                    let start = Int.random(in: 0...model.count, using: &rng)
                    buffer.removeSubrange(start...)
                    model.removeSubrange(start...)
                case 7 where Int.random(in: 0..<50, using: &rng) == 0:
                    // A whole new buffer: the old one's elements are released.
                    buffer = NodeBuffer(model)
                default:
                    let elements = make(Int.random(in: 0..<5, using: &rng))
                    buffer.append(contentsOf: elements)
                    model.append(contentsOf: elements)
                }
                #expect(buffer.count == model.count, "seed \(seed), step \(step)")
                #expect(buffer.isEmpty == model.isEmpty)
                #expect(buffer.array.first === model.first)
                #expect(buffer.array.elementsEqual(model, by: ===), "seed \(seed), step \(step)")
            }
            if model.count > 2 {
                #expect(buffer.array(1..<(model.count - 1)).elementsEqual(model[1..<(model.count - 1)], by: ===))
            }
            #expect(Tracked.alive.load(ordering: .relaxed) - aliveBefore == model.count)
        }
        #expect(Tracked.alive.load(ordering: .relaxed) == aliveBefore, "seed \(seed): a buffer leaked or over-released")
    }

    /// Plain values in and out; an empty buffer allocates nothing and has no address.
    @Test func holdsPlainValues() {
        var buffer = NodeBuffer<Int32>()
        #expect(buffer.isEmpty && buffer.array.isEmpty && buffer.address(of: 0) == nil)
        buffer.append(contentsOf: [3, 1, 4, 1, 5])
        buffer.insert(9, at: 0)
        buffer.remove(at: 2)
        buffer[1] += 10
        #expect(buffer.array == [9, 13, 4, 1, 5])
        #expect(buffer.withElements { $0.reduce(0, +) } == 32)
        #expect(buffer.address(of: 0) != nil)
        buffer.removeSubrange(0..<5)
        #expect(buffer.isEmpty && buffer.array.isEmpty)
    }

    /// Room made with the elements takes that many insertions without moving them.
    @Test func spareRoomKeepsTheElementsInPlace() {
        var buffer = NodeBuffer<Int32>([1, 2, 3], spare: 2)
        let start = buffer.address(of: 0)
        buffer.insert(0, at: 0)
        buffer.append(4)
        #expect(buffer.address(of: 0) == start && buffer.array == [0, 1, 2, 3, 4])
        buffer.append(5)
        #expect(buffer.array == [0, 1, 2, 3, 4, 5])
        #expect(NodeBuffer<Int32>([], spare: 8).address(of: 0) == nil)
    }

    /// A buffer's extent covers its bytes from its first element, with a line to spare.
    @Test func extentCoversTheElements() {
        #expect(NodeBuffer<Int32>().extent.address == nil && NodeBuffer<Int32>().extent.lines == 0)
        let buffer = NodeBuffer<Int32>(Array(0..<20))
        #expect(buffer.extent.address == buffer.address(of: 0))
        #expect(buffer.extent.lines == 3)  // 80 bytes: two lines, and one for a start inside a line
        #expect(NodeBuffer<SlotDigest>(Array(repeating: .unknown, count: 48)).extent.lines == 16)  // 960 bytes
        NodeLines(buffer.extent).prefetch()
        #expect(buffer.extent(of: 4..<12).address == buffer.address(of: 4))
        #expect(buffer.extent(of: 4..<12).lines == 2)  // 32 bytes
        #expect(buffer.extent(of: 16..<40).lines == 2)  // clamped to 16..<20: 16 bytes
        #expect(buffer.extent(of: 20..<30).address == nil)
    }

    /// The borrowed view, in-place updates, sums and appends see the elements in order.
    @Test func borrowsUpdatesAndAppends() {
        var buffer = NodeBuffer<UInt32>([1, 2, 3, 4, 5])
        #expect(buffer.withElements { Array($0) } == [1, 2, 3, 4, 5])
        #expect(buffer.withElements { $0[1..<3].reduce(0, +) } == 5)
        #expect(buffer.withElements { Array($0.rebased(1..<3)) } == [2, 3])
        buffer.updateEach(in: 2..<5) { $0 += 10 }
        #expect(buffer.array == [1, 2, 13, 14, 15])
        #expect(buffer.wrappingSum(ofFirst: 0) == 0 && buffer.wrappingSum(ofFirst: 3) == 16)
        let other = NodeBuffer<UInt32>([7, 8])
        buffer.append(contentsOf: other)
        #expect(buffer.array == [1, 2, 13, 14, 15, 7, 8])
        var copied: [UInt32] = [0]
        other.append(to: &copied)
        #expect(copied == [0, 7, 8])
        buffer.append(contentsOf: NodeBuffer<UInt32>())
        #expect(buffer.count == 7)
    }

    /// Asking for an object's lines changes nothing.
    @Test func prefetchingAnObjectChangesNothing() {
        let buffer = NodeBuffer<Tracked>([Tracked(4), Tracked(2)])
        buffer.prefetchObject(at: 1, lines: 2)
        #expect(buffer.array.map(\.value) == [4, 2])
    }
}
