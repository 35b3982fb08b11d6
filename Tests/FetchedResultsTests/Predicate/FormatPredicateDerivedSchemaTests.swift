@testable import FetchedResults
import Foundation
import ObjectGraph
import Testing

/// A class with attributes predicates cannot compare.
final class PredicateCrate: GraphObject {
    @Attribute var label = ""
    @Attribute var tags: [String] = []
    @Relationship var shelf: PredicateShelf?
}

/// Binding to a class derives the schema from its entity description.
@Suite struct FormatPredicateDerivedSchemaTests {
    @Test func bindingToAClassReachesRelatedClasses() throws {
        let graph = ObjectGraph()
        let shelf = graph.insert(PredicateShelf())
        shelf.floor = 2
        let product = graph.insert(PredicateProduct())
        product.name = "Lait"
        product.shelf = shelf
        let other = graph.insert(PredicateProduct())
        other.name = "Sel"
        _ = try graph.commit()
        let predicate = try FormatPredicate("shelf.floor == %d AND ANY shelf.items.name BEGINSWITH %@", 2, "L")
            .bind(to: PredicateProduct.self)
        #expect(graph.objects(of: PredicateProduct.self).filter(predicate.evaluate) == [product])
        let stocked = try FormatPredicate.bind("ANY items.name ==[c] %@", to: PredicateShelf.self, "lait")
        #expect(stocked.evaluate(shelf))
    }

    @Test func anAttributeOfAnotherTypeIsNamedInTheError() throws {
        do {
            _ = try FormatPredicate("label == 'a' AND tags == nil").bind(to: PredicateCrate.self)
            Issue.record("an attribute predicates cannot compare must throw")
        } catch {
            #expect(error.kind == .unsupported)
            #expect(error.offset == 17)
            #expect(error.token == "tags")
            #expect(error.expected.contains("Array<String>"), "\(error)")
        }
        do {
            _ = try FormatPredicate("shelf.floor > 1 OR colour == 'red'").bind(to: PredicateCrate.self)
            Issue.record("an unknown key must throw")
        } catch {
            #expect(error.kind == .unknownKey)
            #expect(error.offset == 19)
            #expect(error.expected.contains("label, shelf"), "\(error)")
        }
    }

    @Test func foldingsFollowTheGraphOfTheFirstObjectFolded() throws {
        let graph = ObjectGraph()
        let search = try FormatPredicate("name CONTAINS[cd] 'creme'").bind(to: PredicateProduct.self)
        let schema = try #require(search.derivedSchema)
        let items = (0..<3).map { index in
            let item = graph.insert(PredicateProduct())
            item.name = index == 0 ? "Crème fraîche" : "Beurre \(index)"
            return item
        }
        _ = try graph.commit()
        #expect(items.filter(search.evaluate) == [items[0]])
        #expect(schema.foldedTextCount == 3)
        items[0].name = "Lait"
        items[1].name = "CRÈME"
        _ = try graph.commit()
        #expect(items.filter(search.evaluate) == [items[1]])
        graph.delete(items[0])
        graph.delete(items[2])
        _ = try graph.commit()
        #expect(schema.foldedTextCount == 1, "the foldings of deleted objects are dropped at commit")
    }

    @Test func aDerivedPredicateAndItsMaintenanceAreFreedTogether() throws {
        let graph = ObjectGraph()
        let item = graph.insert(PredicateProduct())
        item.name = "Crème"
        _ = try graph.commit()
        weak var schema: GraphPredicateSchema?
        try {
            let search = try FormatPredicate("name CONTAINS[cd] 'creme'").bind(to: PredicateProduct.self)
            #expect(search.evaluate(item))
            schema = search.derivedSchema
            #expect(schema != nil)
        }()
        #expect(schema == nil, "a derived schema leaked")
        // The graph's observer went with it: commits still work and deliver nothing to it.
        item.name = "Lait"
        _ = try graph.commit()
    }
}
