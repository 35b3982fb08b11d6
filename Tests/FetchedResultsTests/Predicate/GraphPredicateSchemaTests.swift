import FetchedResults
import Foundation
import ObjectGraph
import Testing
import TestSupport

final class PredicateShelf: GraphObject {
    @Attribute var name = ""
    @Attribute var floor = 0
    @Relationship var items: Set<PredicateProduct>
}

final class PredicateProduct: GraphObject {
    @Attribute var name = ""
    @Attribute var note: String? = nil
    @Attribute var quantity = 0
    @Attribute var price = 0.0
    @Attribute var listed = false
    @Attribute var added = Date(timeIntervalSinceReferenceDate: 0)
    @Relationship(inverse: \PredicateShelf.items) var shelf: PredicateShelf?
}

@Suite struct GraphPredicateSchemaTests {
    @Test func entitiesMirrorTheEntityDescriptions() throws {
        let schema = GraphPredicateSchema(PredicateProduct.self, PredicateShelf.self)
        let product = schema.entity(for: PredicateProduct.self)
        #expect(product.propertyNames == ["added", "listed", "name", "note", "price", "quantity", "shelf"])
        #expect(product.attributeKind(named: "note")! == (.string, true))
        #expect(product.attributeKind(named: "quantity")! == (.integer, false))
        #expect(product.attributeKind(named: "price")! == (.double, false))
        #expect(product.attributeKind(named: "added")! == (.date, false))
        do {
            _ = try FormatPredicate.bind("name == 3", to: product)
            Issue.record("a type mismatch must throw")
        } catch {
            #expect(error.kind == .typeMismatch)
            #expect(error.offset == 8)
        }
    }

    @Test func relatedClassesAreIncludedWithoutBeingListed() throws {
        // Only the product is named; its shelf relationship brings the shelf's class in.
        let schema = GraphPredicateSchema(PredicateProduct.self)
        #expect(schema.entities.keys.sorted() == [PredicateProduct.entity.name, PredicateShelf.entity.name].sorted())
        let graph = ObjectGraph()
        let shelf = graph.insert(PredicateShelf())
        shelf.floor = 2
        let product = graph.insert(PredicateProduct())
        product.shelf = shelf
        let predicate = try FormatPredicate.bind("shelf.floor == 2", to: schema.entity(for: PredicateProduct.self))
        #expect(predicate.evaluate(product))
        _ = schema.entity(for: PredicateShelf.self)
    }

    @Test func evaluatesAgainstGraphObjects() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(PredicateShelf())
        fridge.name = "Fridge"
        fridge.floor = 1
        let milk = graph.insert(PredicateProduct())
        milk.name = "Lait entier"
        milk.quantity = 2
        milk.shelf = fridge
        let salt = graph.insert(PredicateProduct())
        salt.name = "Sel de Guérande"
        salt.note = "fin"
        _ = try graph.commit()

        let schema = GraphPredicateSchema(PredicateProduct.self, PredicateShelf.self)
        let product = schema.entity(for: PredicateProduct.self)
        let cases: [(String, [PredicateProduct])] = [
            ("name CONTAINS[cd] 'GUERANDE'", [salt]),
            ("shelf.name == 'Fridge' AND quantity > 1", [milk]),
            ("shelf == nil", [salt]),
            ("note != nil", [salt]),
            ("shelf.items.@count == 1", [milk]),
            ("ANY shelf.items.name BEGINSWITH 'Lait'", [milk]),
            ("NONE shelf.items.quantity > 5", [milk, salt]),
        ]
        for (format, expected) in cases {
            let predicate = try FormatPredicate.bind(format, to: product)
            #expect(graph.objects(of: PredicateProduct.self).filter(predicate.evaluate) == expected, "\(format)")
        }
        let shelf = schema.entity(for: PredicateShelf.self)
        let stocked = try FormatPredicate.bind("ANY items.name BEGINSWITH[c] 'lait' AND floor == 1", to: shelf)
        #expect(stocked.evaluate(fridge))
    }

    @Test func foldedTextFollowsCommitsAndDeletes() throws {
        let graph = ObjectGraph()
        let schema = GraphPredicateSchema(PredicateProduct.self, PredicateShelf.self)
        let observation = schema.maintainFoldedText(in: graph)
        let search = try FormatPredicate.bind("name CONTAINS[cd] 'creme'", to: schema.entity(for: PredicateProduct.self))
        let item = graph.insert(PredicateProduct())
        item.name = "Crème fraîche"
        _ = try graph.commit()
        #expect(search.evaluate(item))
        #expect(schema.foldedTextCount == 1)
        // A pending (uncommitted) write is seen at once: foldings are checked against the value.
        item.name = "Beurre"
        #expect(!search.evaluate(item))
        item.name = "CRÈME"
        _ = try graph.commit()
        #expect(search.evaluate(item))
        graph.delete(item)
        _ = try graph.commit()
        #expect(schema.foldedTextCount == 0)
        observation.cancel()
    }

    @Test func readsAreTrackedForControllers() throws {
        let graph = ObjectGraph()
        let fridge = graph.insert(PredicateShelf())
        let milk = graph.insert(PredicateProduct())
        milk.shelf = fridge
        _ = try graph.commit()
        let schema = GraphPredicateSchema(PredicateProduct.self, PredicateShelf.self)
        let predicate = try FormatPredicate.bind("shelf.name == 'Fridge'", to: schema.entity(for: PredicateProduct.self))
        let (_, reads) = graph.trackReads { predicate.evaluate(milk) }
        let shelf = PropertyRead(objectID: milk.objectID, property: PredicateProduct.entity.index(of: "shelf")!)
        let name = PropertyRead(objectID: fridge.objectID, property: PredicateShelf.entity.index(of: "name")!)
        #expect(reads.reads.contains(shelf))
        #expect(reads.reads.contains(name))
    }
}
