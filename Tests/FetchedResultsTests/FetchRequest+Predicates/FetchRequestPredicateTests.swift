import FetchedResults
import FetchedResultsTesting
import Foundation
import Testing

/// A graph of items in two locations, committed.
private func makeGraph() throws -> (ObjectGraph, fridge: Location, pantry: Location, [Item]) {
    let graph = ObjectGraph()
    let fridge = graph.insert(Location())
    fridge.name = "Fridge"
    let pantry = graph.insert(Location())
    pantry.name = "Pantry"
    let items = [("milk", 2, fridge), ("Crème", 0, fridge), ("bread", 3, pantry), ("jam", 1, pantry), ("eggs", 5, nil)].map {
        name, quantity, location in
        let item = graph.insert(Item())
        item.name = name
        item.quantity = quantity
        item.location = location
        return item
    }
    _ = try graph.commit()
    return (graph, fridge, pantry, items)
}

private func names(_ controller: some SectionedResults<Item>) -> [String] {
    controller.fetchedObjects.map(\.name)
}

@Suite("FetchRequest predicates from Foundation and format strings")
struct FetchRequestPredicateTests {
    @Test func foundationPredicateFiltersAndStaysLive() throws {
        let (graph, _, _, items) = try makeGraph()
        let request = FetchRequest(Item.self, predicate: #Predicate<Item> { $0.quantity > 1 }, sortedBy: [SortKey(\.name)])
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        #expect(names(controller) == ["bread", "eggs", "milk"])
        items[3].quantity = 7
        items[0].quantity = 0
        _ = try graph.commit()
        #expect(names(controller) == ["bread", "eggs", "jam"])
    }

    @Test func foundationPredicateAcrossARelationshipFollowsTheRelatedObject() throws {
        let (graph, fridge, _, _) = try makeGraph()
        let predicate = #Predicate<Item> { item in item.location?.name == "Fridge" }
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: FetchPredicate(predicate), sortedBy: [SortKey(\.name)]))
        controller.performFetch()
        #expect(names(controller) == ["Crème", "milk"])
        fridge.name = "Cellar"
        _ = try graph.commit()
        #expect(names(controller).isEmpty, "renaming the location re-evaluates the items that read it")
    }

    @Test func foundationPredicateThatThrowsExcludesByDefault() throws {
        let (graph, _, _, _) = try makeGraph()
        let unwrapping = #Predicate<Item> { item in item.location!.name.count > 0 }
        let excluded = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: FetchPredicate(unwrapping), sortedBy: [SortKey(\.name)]))
        excluded.performFetch()
        #expect(names(excluded) == ["bread", "Crème", "jam", "milk"].sorted())
        let included = ResultsController(graph: graph, request: FetchRequest(
            Item.self, predicate: FetchPredicate(unwrapping, whenEvaluationFails: true), sortedBy: [SortKey(\.name)]))
        included.performFetch()
        #expect(names(included).count == 5)
    }

    @Test func typedBuildersAndClosuresStillCompose() throws {
        let (graph, _, _, _) = try makeGraph()
        let predicate = FetchPredicate(#Predicate<Item> { $0.quantity >= 1 }) && .contains(\.name, "E") || FetchPredicate { $0.name == "Crème" }
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: predicate, sortedBy: [SortKey(\.name)]))
        controller.performFetch()
        #expect(names(controller) == ["bread", "Crème", "eggs"].sorted())
    }

    @Test func formatPredicateFiltersAndFollowsRelationships() throws {
        let (graph, _, pantry, items) = try makeGraph()
        let schema = GraphPredicateSchema(Item.self, Location.self)
        let request = try FetchRequest(
            Item.self, format: "quantity >= %d AND location.name ==[c] %@", 1, "pantry", schema: schema, sortedBy: [SortKey(\.name)])
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        #expect(names(controller) == ["bread", "jam"])
        pantry.name = "Shed"
        items[0].location = nil
        _ = try graph.commit()
        #expect(names(controller).isEmpty)
        pantry.name = "PANTRY"
        _ = try graph.commit()
        #expect(names(controller) == ["bread", "jam"])
    }

    @Test func formatPredicateFoldsCaseAndDiacritics() throws {
        let (graph, _, _, _) = try makeGraph()
        let schema = GraphPredicateSchema(Item.self, Location.self)
        let predicate = try FetchPredicate<Item>(format: "name CONTAINS[cd] %@", "CREME", schema: schema)
        let controller = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: predicate))
        controller.performFetch()
        #expect(names(controller) == ["Crème"])
    }

    @Test func boundFormatPredicatePlugsIntoARequest() throws {
        let (graph, _, _, _) = try makeGraph()
        let schema = GraphPredicateSchema(Item.self)
        let requests = [
            FetchRequest(Item.self, predicate: try FormatPredicate("name BEGINSWITH[c] %@", "b").bind(to: Item.self), sortedBy: [SortKey(\.name)]),
            FetchRequest(Item.self, predicate: try FormatPredicate("name BEGINSWITH[c] %@", "b").bind(to: schema), sortedBy: [SortKey(\.name)]),
            FetchRequest(
                Item.self, predicate: try FormatPredicate("name BEGINSWITH[c] %@", "b").bind(to: schema.entity(for: Item.self)),
                sortedBy: [SortKey(\.name)]),
            FetchRequest(Item.self, predicate: try FormatPredicate.bind("name BEGINSWITH[c] %@", to: Item.self, "b"), sortedBy: [SortKey(\.name)]),
        ]
        for request in requests {
            let controller = ResultsController(graph: graph, request: request)
            controller.performFetch()
            #expect(names(controller) == ["bread"])
        }
    }

    @Test func formatRequestDerivesItsSchemaAndFollowsRelationships() throws {
        let (graph, _, pantry, items) = try makeGraph()
        let request = try FetchRequest(
            Item.self, format: "quantity >= %d AND location.name ==[c] %@", 1, "pantry", sortedBy: [SortKey(\.name)])
        let controller = ResultsController(graph: graph, request: request)
        controller.performFetch()
        #expect(names(controller) == ["bread", "jam"])
        pantry.name = "Shed"
        items[0].location = nil
        _ = try graph.commit()
        #expect(names(controller).isEmpty)
        pantry.name = "PANTRY"
        _ = try graph.commit()
        #expect(names(controller) == ["bread", "jam"])

        let folded = try FetchPredicate<Item>(format: "name CONTAINS[cd] %@", "CREME")
        let search = ResultsController(graph: graph, request: FetchRequest(Item.self, predicate: folded, fetchLimit: 5))
        search.performFetch()
        #expect(names(search) == ["Crème"])
    }

    @Test func derivedBindingErrorsPointIntoTheFormat() {
        let cases: [(String, PredicateSyntaxError.Kind, Int, String)] = [
            ("quantity > 1 AND colour == 'red'", .unknownKey, 17, "colour"),
            ("location.colour == 'red'", .unknownKey, 9, "colour"),
            ("location.items.@count > 'x'", .typeMismatch, 24, "\"x\""),
            ("name CONTAINS", .syntax, 13, ""),
        ]
        for (format, kind, offset, token) in cases {
            do {
                _ = try FetchRequest(Item.self, format: format, sortedBy: [SortKey(\.name)])
                Issue.record("\(format) must throw")
            } catch {
                #expect(error.kind == kind, "\(format)")
                #expect(error.offset == offset, "\(format): \(error)")
                #expect(error.token == token, "\(format): \(error)")
            }
        }
        do {
            _ = try FetchPredicate<Item>(format: "location.colour == 'red'")
            Issue.record("an unknown key must throw")
        } catch {
            #expect(error.expected.contains("a property of Location"), "\(error)")
        }
    }

    @Test func aSchemaWithoutTheClassThrowsInsteadOfTrapping() {
        let unrelated = GraphPredicateSchema(PredicateProduct.self)
        do {
            _ = try FetchRequest(Item.self, format: "quantity > 1", schema: unrelated)
            Issue.record("binding to a schema without Item must throw")
        } catch {
            #expect(error.kind == .unknownEntity)
            #expect(error.token == Item.entity.name)
            #expect(error.description.contains("unknown entity"))
        }
        #expect(throws: PredicateSyntaxError.self) { try FetchPredicate<Item>(format: "quantity > 1", schema: unrelated) }
        #expect(throws: PredicateSyntaxError.self) { try FormatPredicate("quantity > 1").bind(to: unrelated, as: Item.self) }
    }

    @Test func malformedFormatThrowsATypedError() throws {
        let schema = GraphPredicateSchema(Item.self, Location.self)
        #expect(throws: PredicateSyntaxError.self) { try FetchPredicate<Item>(format: "name CONTAINS", schema: schema) }
        #expect(throws: PredicateSyntaxError.self) { try FetchPredicate<Item>(format: "colour == 'red'", schema: schema) }
    }
}
