import ObjectGraph
import Testing
import TestSupport

/// An entity with more properties than a split scope keeps as bits (66: indexes 64 and 65
/// are appended as reads instead).
final class Wide: GraphObject {
    @Attribute var p0 = 0
    @Attribute var p1 = 1
    @Attribute var p2 = 2
    @Attribute var p3 = 3
    @Attribute var p4 = 4
    @Attribute var p5 = 5
    @Attribute var p6 = 6
    @Attribute var p7 = 7
    @Attribute var p8 = 8
    @Attribute var p9 = 9
    @Attribute var p10 = 10
    @Attribute var p11 = 11
    @Attribute var p12 = 12
    @Attribute var p13 = 13
    @Attribute var p14 = 14
    @Attribute var p15 = 15
    @Attribute var p16 = 16
    @Attribute var p17 = 17
    @Attribute var p18 = 18
    @Attribute var p19 = 19
    @Attribute var p20 = 20
    @Attribute var p21 = 21
    @Attribute var p22 = 22
    @Attribute var p23 = 23
    @Attribute var p24 = 24
    @Attribute var p25 = 25
    @Attribute var p26 = 26
    @Attribute var p27 = 27
    @Attribute var p28 = 28
    @Attribute var p29 = 29
    @Attribute var p30 = 30
    @Attribute var p31 = 31
    @Attribute var p32 = 32
    @Attribute var p33 = 33
    @Attribute var p34 = 34
    @Attribute var p35 = 35
    @Attribute var p36 = 36
    @Attribute var p37 = 37
    @Attribute var p38 = 38
    @Attribute var p39 = 39
    @Attribute var p40 = 40
    @Attribute var p41 = 41
    @Attribute var p42 = 42
    @Attribute var p43 = 43
    @Attribute var p44 = 44
    @Attribute var p45 = 45
    @Attribute var p46 = 46
    @Attribute var p47 = 47
    @Attribute var p48 = 48
    @Attribute var p49 = 49
    @Attribute var p50 = 50
    @Attribute var p51 = 51
    @Attribute var p52 = 52
    @Attribute var p53 = 53
    @Attribute var p54 = 54
    @Attribute var p55 = 55
    @Attribute var p56 = 56
    @Attribute var p57 = 57
    @Attribute var p58 = 58
    @Attribute var p59 = 59
    @Attribute var p60 = 60
    @Attribute var p61 = 61
    @Attribute var p62 = 62
    @Attribute var p63 = 63
    @Attribute var p64 = 64
    @Attribute var p65 = 65
}

/// One step of a random program of reads and scopes.
private indirect enum ReadStep {
    /// Reads a property of an item (by getter or by name) or the name of its location.
    case read(item: Int, property: Int)
    /// A scope of ``ObjectGraph/trackReads(_:)`` around the steps.
    case generic([ReadStep])
    /// A split scope of `item` around the steps.
    case split(owner: Int, [ReadStep])
    /// ``ObjectGraph/withoutObservation(_:)`` around the steps.
    case untracked([ReadStep])
}

@Suite("Split read tracking")
struct SplitReadTrackingTests {
    @Test func ownReadsBecomeBitsAndOtherReadsAreAppended() throws {
        let (graph, home, _, milk, eggs, _) = try groceryGraph()
        let item = Item.entity
        var own: UInt64 = 1 << 40  // kept: bits are only ever added
        var reads: [PropertyRead] = []
        let place = graph.trackReads(of: milk, ownProperties: &own, appendingTo: &reads) { () -> String in
            _ = milk.quantity
            _ = eggs.name
            return milk.location?.name ?? ""
        }
        #expect(place == "Home")
        let quantity = item.index(of: "quantity")!.rawValue, location = item.index(of: "location")!.rawValue
        #expect(own == 1 << 40 | 1 << quantity | 1 << location)
        #expect(reads == [
            PropertyRead(objectID: eggs.objectID, property: item.index(of: "name")!),
            PropertyRead(objectID: home.objectID, property: Location.entity.index(of: "name")!),
        ])
        // Nothing leaks into the next scope.
        let (_, next) = graph.trackReads { _ = milk.listed }
        #expect(next.reads == [PropertyRead(objectID: milk.objectID, property: item.index(of: "listed")!)])
    }

    @Test func propertiesFromIndex64AreAppended() throws {
        let graph = ObjectGraph()
        let wide = graph.insert(Wide())
        try graph.commit()
        var own: UInt64 = 0
        var reads: [PropertyRead] = []
        let sum = graph.trackReads(of: wide, ownProperties: &own, appendingTo: &reads) { wide.p0 + wide.p63 + wide.p64 + wide.p65 }
        #expect(sum == 0 + 63 + 64 + 65)
        #expect(own == UInt64(1) | 1 << 63)
        #expect(reads.map(\.property.rawValue) == [64, 65] && reads.allSatisfy { $0.objectID == wide.objectID })
    }

    @Test(arguments: testSeeds(count: 24))
    func nestedScopesSeeExactlyTheirReads(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let (graph, _, _, milk, eggs, bread) = try groceryGraph()
        let items = [milk, eggs, bread]
        for _ in 0..<20 {
            let program = Self.randomSteps(depth: 0, using: &rng)
            // Each scope is checked as it ends: first with no scope around the program (its
            // split scopes keep bits), then inside one outer scope (they append every read).
            Self.run(program, items, graph)
            let (_, all) = graph.trackReads { Self.run(program, items, graph) }
            #expect(Set(all) == graph.withoutObservation { Self.expectedReads(program, items, tracked: true) })
        }
    }

    // MARK: - The random programs

    private static func randomSteps(depth: Int, using rng: inout SeededGenerator) -> [ReadStep] {
        (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            let kind = depth < 3 ? Int.random(in: 0..<8, using: &rng) : 0
            let item = Int.random(in: 0..<3, using: &rng)
            switch kind {
            case 0...3: return .read(item: item, property: Int.random(in: 0..<7, using: &rng))
            case 4: return .generic(randomSteps(depth: depth + 1, using: &rng))
            case 5, 6: return .split(owner: item, randomSteps(depth: depth + 1, using: &rng))
            default: return .untracked(randomSteps(depth: depth + 1, using: &rng))
            }
        }
    }

    /// Runs the steps, checking every scope against the reference as it ends.
    private static func run(_ steps: [ReadStep], _ items: [Item], _ graph: ObjectGraph) {
        for step in steps {
            switch step {
            case .read(let index, let property):
                let item = items[index]
                switch property {
                case 0: _ = item.name
                case 1: _ = item.quantity
                case 2: _ = item.listed
                case 3: _ = item.location
                case 4: _ = item.location?.name
                case 5: _ = item.value(forKey: "note")
                default: _ = item.tags.count
                }
            case .generic(let inner):
                let (_, reads) = graph.trackReads { run(inner, items, graph) }
                // The reference reads untracked, or the enclosing scopes would see its reads.
                #expect(Set(reads) == graph.withoutObservation { expectedReads(inner, items, tracked: true) })
            case .split(let owner, let inner):
                var own: UInt64 = 0
                var reads: [PropertyRead] = [PropertyRead(objectID: items[owner].objectID, property: PropertyIndex(99))]
                graph.trackReads(of: items[owner], ownProperties: &own, appendingTo: &reads) { run(inner, items, graph) }
                #expect(reads.first?.property.rawValue == 99, "earlier contents are kept")
                var seen = Set(reads.dropFirst())
                for index in 0..<64 where own & 1 << index != 0 {
                    seen.insert(PropertyRead(objectID: items[owner].objectID, property: PropertyIndex(index)))
                }
                #expect(seen == graph.withoutObservation { expectedReads(inner, items, tracked: true) })
            case .untracked(let inner):
                graph.withoutObservation { run(inner, items, graph) }
            }
        }
    }

    /// The reference: the reads a scope around `steps` sees — every read made where the
    /// innermost enclosing mode is a tracking scope.
    private static func expectedReads(_ steps: [ReadStep], _ items: [Item], tracked: Bool) -> Set<PropertyRead> {
        let item = Item.entity
        var reads: Set<PropertyRead> = []
        for step in steps {
            switch step {
            case .read(let index, let property):
                guard tracked else { continue }
                let object = items[index]
                let name = ["name", "quantity", "listed", "location", "location", "note", "tags"][property]
                reads.insert(PropertyRead(objectID: object.objectID, property: item.index(of: name)!))
                if property == 4, let location = object.location {
                    reads.insert(PropertyRead(objectID: location.objectID, property: Location.entity.index(of: "name")!))
                }
            case .generic(let inner), .split(_, let inner):
                reads.formUnion(expectedReads(inner, items, tracked: true))
            case .untracked(let inner):
                reads.formUnion(expectedReads(inner, items, tracked: false))
            }
        }
        return reads
    }
}
