import FetchedResults
import Foundation
import Testing

@Suite struct BoundFormatPredicateDescriptionTests {
    @Test(arguments: [
        (#"name BEGINSWITH %@"#, [PredicateValue.string("a")], [String: PredicateValue](), #"name BEGINSWITH "a""#),
        (#"name CONTAINS[cd] $text AND quantity > %d"#, [2], ["text": "milk"], #"name CONTAINS[cd] "milk" AND quantity > 2"#),
        (#"quantity IN {$low, 3} OR NOT (listed == YES)"#, [], ["low": 1], #"quantity IN {1, 3} OR NOT listed == TRUE"#),
        (#"ANY location.items.name ==[c] %@"#, ["Jam"], [:], #"ANY location.items.name ==[c] "Jam""#),
    ] as [(String, [PredicateValue], [String: PredicateValue], String)])
    func descriptionIsThePredicateWithItsValues(
        format: String, arguments: [PredicateValue], variables: [String: PredicateValue], expected: String
    ) throws {
        let parsed = try FormatPredicate(format: format, arguments: arguments)
        let bound = try parsed.bind(to: Item.self, variables: variables)
        #expect(bound.description == expected)
        #expect(String(describing: bound) == expected)
        #expect("\(bound)" == expected)
        // It reads back as the same predicate, variables substituted.
        let reparsed = try FormatPredicate(bound.description)
        #expect(reparsed.description == expected)
        #expect(try reparsed.bind(to: Item.self).description == expected)
    }

    @Test func descriptionOfAPredicateBoundToASchemaEntity() throws {
        let schema = GraphPredicateSchema(Item.self, Location.self)
        let bound = try FormatPredicate("name BEGINSWITH %@ AND location.name == $where", "a")
            .bind(to: schema.entity(for: Item.self), variables: ["where": "Fridge"])
        #expect(String(describing: bound) == #"name BEGINSWITH "a" AND location.name == "Fridge""#)
    }

    @Test func debugDescriptionAddsTheEntityAndThePlan() throws {
        let bound = try FormatPredicate("name BEGINSWITH %@", "a").bind(to: Item.self)
        #expect(bound.debugDescription == #"BoundFormatPredicate<Item>(name BEGINSWITH "a", plan: name BEGINSWITH "a")"#)
        #expect(!bound.description.contains("PredicateStep"))
    }
}
