import FetchedResults
import Testing

/// An entity with more properties than a split tracking scope keeps as bits: its properties
/// 64 and 65 reach the dependency index as appended reads instead.
final class WideRecord: GraphObject {
    @Attribute var p0 = 0
    @Attribute var p1 = 0
    @Attribute var p2 = 0
    @Attribute var p3 = 0
    @Attribute var p4 = 0
    @Attribute var p5 = 0
    @Attribute var p6 = 0
    @Attribute var p7 = 0
    @Attribute var p8 = 0
    @Attribute var p9 = 0
    @Attribute var p10 = 0
    @Attribute var p11 = 0
    @Attribute var p12 = 0
    @Attribute var p13 = 0
    @Attribute var p14 = 0
    @Attribute var p15 = 0
    @Attribute var p16 = 0
    @Attribute var p17 = 0
    @Attribute var p18 = 0
    @Attribute var p19 = 0
    @Attribute var p20 = 0
    @Attribute var p21 = 0
    @Attribute var p22 = 0
    @Attribute var p23 = 0
    @Attribute var p24 = 0
    @Attribute var p25 = 0
    @Attribute var p26 = 0
    @Attribute var p27 = 0
    @Attribute var p28 = 0
    @Attribute var p29 = 0
    @Attribute var p30 = 0
    @Attribute var p31 = 0
    @Attribute var p32 = 0
    @Attribute var p33 = 0
    @Attribute var p34 = 0
    @Attribute var p35 = 0
    @Attribute var p36 = 0
    @Attribute var p37 = 0
    @Attribute var p38 = 0
    @Attribute var p39 = 0
    @Attribute var p40 = 0
    @Attribute var p41 = 0
    @Attribute var p42 = 0
    @Attribute var p43 = 0
    @Attribute var p44 = 0
    @Attribute var p45 = 0
    @Attribute var p46 = 0
    @Attribute var p47 = 0
    @Attribute var p48 = 0
    @Attribute var p49 = 0
    @Attribute var p50 = 0
    @Attribute var p51 = 0
    @Attribute var p52 = 0
    @Attribute var p53 = 0
    @Attribute var p54 = 0
    @Attribute var p55 = 0
    @Attribute var p56 = 0
    @Attribute var p57 = 0
    @Attribute var p58 = 0
    @Attribute var p59 = 0
    @Attribute var p60 = 0
    @Attribute var p61 = 0
    @Attribute var p62 = 0
    @Attribute var p63 = 0
    @Attribute var p64 = 0
    @Attribute var p65 = 0
}

/// Dependencies stay exact on every path of the controller's read tracking: own reads kept
/// as bits, own reads beyond index 63, and reads made inside a tracking scope that a key
/// opens itself.
@Suite("ResultsController read tracking")
struct ResultsControllerReadTrackingTests {
    private func makeGraph() throws -> (ObjectGraph, [WideRecord]) {
        let graph = ObjectGraph()
        let records = (0..<4).map { index in
            let record = graph.insert(WideRecord())
            record.p1 = index
            record.p65 = 1
            return record
        }
        _ = try graph.commit()
        return (graph, records)
    }

    @Test func ownPropertiesFromIndex64AreDependencies() throws {
        let (graph, records) = try makeGraph()
        let request = FetchRequest(WideRecord.self, predicate: FetchPredicate { $0.p65 > 0 },
                                   sortedBy: [SortKey(name: "p64", ascending: false) { $0.p64 }, SortKey { $0.p1 }])
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        #expect(controller.fetchedObjects == records)
        records[2].p65 = 0
        records[3].p64 = 1
        records[1].p63 = 7  // read by nothing: no re-evaluation needed
        _ = try graph.commit()
        #expect(controller.fetchedObjects == [records[3], records[0], records[1]])
    }

    @Test func readsInsideAKeysOwnTrackingScopeAreDependencies() throws {
        let (graph, records) = try makeGraph()
        // The predicate tracks its own reads: the controller's scope must still see them.
        let predicate = FetchPredicate<WideRecord> { record in
            let (included, reads) = graph.trackReads { record.p0 == 0 }
            return included && reads.count == 1
        }
        let controller = ResultsController(graph: graph, request: FetchRequest(WideRecord.self, predicate: predicate, sortedBy: [SortKey { $0.p1 }]))
        controller.performFetch()
        #expect(controller.fetchedObjects == records)
        records[0].p0 = 1
        _ = try graph.commit()
        #expect(controller.fetchedObjects == Array(records.dropFirst()))
        records[0].p0 = 0
        _ = try graph.commit()
        #expect(controller.fetchedObjects == records)
    }
}
