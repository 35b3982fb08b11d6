import FetchedResults
import Foundation
import Testing
import TestSupport

@Suite struct FormatPredicateBindingTests {
    /// Strings that parse but do not bind to the test schema's Item: kind, offset, token.
    static let invalid: [(String, PredicateSyntaxError.Kind, Int, String)] = [
        ("nme == 'x'", .unknownKey, 0, "nme"),
        ("location.nme == 'x'", .unknownKey, 9, "nme"),
        ("location.storedIn.x == 'x'", .typeMismatch, 0, "location.storedIn.x"),
        ("name == 3", .typeMismatch, 8, "3"),
        ("3 == name", .typeMismatch, 0, "3"),
        ("quantity == 'three'", .typeMismatch, 12, "\"three\""),
        ("quantity CONTAINS 'x'", .typeMismatch, 0, "quantity"),
        ("name CONTAINS 3", .typeMismatch, 14, "3"),
        ("listed < YES", .typeMismatch, 0, "listed"),
        ("quantity ==[c] 3", .typeMismatch, 0, "quantity"),
        ("name == location", .typeMismatch, 8, "location"),
        ("quantity BETWEEN {1}", .typeMismatch, 17, "{1}"),
        ("quantity BETWEEN 3", .typeMismatch, 17, "3"),
        ("quantity IN {1, 'a'}", .typeMismatch, 12, "\"a\""),
        ("name IN 'abc'", .typeMismatch, 8, "\"abc\""),
        ("name LIKE note", .typeMismatch, 10, "note"),
        ("name MATCHES '(unclosed'", .invalidRegularExpression, 13, "\"(unclosed\""),
        ("name == $missing", .unboundVariable, 8, "$missing"),
        ("tags.label == 'x'", .typeMismatch, 0, "tags.label"),
        ("ANY name == 'x'", .typeMismatch, 4, "name"),
        ("tags == nil", .typeMismatch, 0, "tags"),
        ("name.@count == 1", .typeMismatch, 0, "name.@count"),
        ("name == ANY tags.label", .syntax, 8, "ANY"),
        ("'x' == tags.label", .unsupported, 7, "tags.label"),
        ("quantity == {1, 2}", .typeMismatch, 12, "{1, 2}"),
    ]

    @Test(arguments: invalid)
    func rejectsAtBindTime(format: String, kind: PredicateSyntaxError.Kind, offset: Int, token: String) throws {
        let schema = TestSchema()
        do {
            let predicate = try FormatPredicate(format)
            _ = try predicate.bind(to: schema.item)
            Issue.record("\(format) bound")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(error.offset == offset, "\(error)")
            #expect(error.token == token, "\(error)")
        }
    }

    @Test func unknownKeyNamesTheEntityAndItsProperties() throws {
        let schema = TestSchema()
        do {
            _ = try FormatPredicate.bind("location.flor > 1", to: schema.item)
            Issue.record("expected an error")
        } catch {
            #expect(error.expected == "a property of Location (floor, items, name, storedIn)")
            #expect(error.description.hasSuffix("location.flor > 1\n         ^"))
        }
    }

    @Test func variablesAreSubstitutedAtBindTime() throws {
        let schema = TestSchema()
        let milk = TestItem(name: "Milk", note: nil, quantity: 2, price: 1.5, listed: true, added: TestData.epoch, location: nil, tags: [])
        let predicate = try FormatPredicate("name ==[c] $NAME AND quantity BETWEEN {$LOW, 3}")
        #expect(try predicate.bind(to: schema.item, variables: ["NAME": "milk", "LOW": 1]).evaluate(milk))
        #expect(try !predicate.bind(to: schema.item, variables: ["NAME": "milk", "LOW": 3]).evaluate(milk))
        #expect(try !predicate.bind(to: schema.item, variables: ["NAME": "bread", "LOW": 1]).evaluate(milk))
    }

    @Test func keyPathsThroughRelationships() throws {
        let schema = TestSchema()
        let fridge = TestLocation(name: "Fridge", storedIn: "Kitchen", floor: 0)
        let milk = TestItem(
            name: "Milk", note: nil, quantity: 2, price: 1.5, listed: true, added: TestData.epoch, location: fridge,
            tags: [TestTag(label: "Dairy", weight: 2), TestTag(label: "Cold", weight: 1)])
        let loose = TestItem(name: "Salt", note: "x", quantity: 0, price: 0.5, listed: false, added: TestData.epoch, location: nil, tags: [])
        fridge.items = [milk]
        let cases: [(String, Bool, Bool)] = [
            ("location.storedIn == 'Kitchen'", true, false),
            ("location.storedIn != 'Kitchen'", false, true),
            ("location.name BEGINSWITH[c] 'fr'", true, false),
            ("location == nil", false, true),
            ("location.items.@count == 1", true, false),
            ("tags.@count >= 2", true, false),
            ("ANY tags.label ==[c] 'cold'", true, false),
            ("ALL tags.weight > 0", true, true),
            ("NONE tags.weight > 1", false, true),
            ("SOME tags.label LIKE '?ai*'", true, false),
            ("TRUEPREDICATE", true, true),
            ("NOT FALSEPREDICATE AND quantity > 0", true, false),
            ("quantity > price", true, false),
            ("'Milk' == name", true, false),
            ("name MATCHES[c] 'm.*k'", true, false),
            ("name IN[c] {'milk', 'bread'}", true, false),
            ("note IN {nil, 'y'}", true, false),
        ]
        for (format, forMilk, forSalt) in cases {
            let predicate = try FormatPredicate.bind(format, to: schema.item)
            #expect(predicate.evaluate(milk) == forMilk, "\(format) on milk")
            #expect(predicate.evaluate(loose) == forSalt, "\(format) on salt")
        }
    }

    @Test(arguments: TestSchema.NameFolding.allCases)
    func foldedTextFollowsWrites(nameFolding: TestSchema.NameFolding) throws {
        let schema = TestSchema(nameFolding: nameFolding)
        let item = TestItem(name: "Crème", note: nil, quantity: 1, price: 1, listed: true, added: TestData.epoch, location: nil, tags: [])
        let predicate = try FormatPredicate.bind("name CONTAINS[cd] %@", to: schema.item, "creme")
        #expect(predicate.evaluate(item))
        item.name = "Brûlée"
        #expect(!predicate.evaluate(item))
        item.name = "CRÈME BRÛLÉE"
        #expect(predicate.evaluate(item))
        // Another predicate bound to the same entity shares the cache.
        let other = try FormatPredicate.bind("name ENDSWITH[cd] 'brulee'", to: schema.item)
        #expect(other.evaluate(item))
        schema.item.removeFoldedText(for: item)
        item.nameFolding.removeAll()
        #expect(other.evaluate(item))
        // Other options than the maintained folding's go through the cache.
        let caseOnly = try FormatPredicate.bind("name CONTAINS[c] 'crème' AND name ==[d] 'CREME BRULEE'", to: schema.item)
        #expect(caseOnly.evaluate(item))
        item.name = "Crème"
        #expect(!caseOnly.evaluate(item))
        #expect(!other.evaluate(item))
    }

    @Test func compoundsRunCheapOperandsFirst() throws {
        let schema = TestSchema()
        let predicate = try FormatPredicate.bind(
            "name MATCHES '.*a.*' AND name CONTAINS[cd] 'j' AND ANY tags.weight > 1 AND quantity > 3 AND listed == YES",
            to: schema.item)
        #expect(predicate.plan == "quantity > 3 AND listed == TRUE AND name CONTAINS[cd] \"j\" AND ANY tags.weight > 1 AND name MATCHES \".*a.*\"")
        let either = try FormatPredicate.bind("location.name == 'x' OR (name LIKE 'a?c' AND price < 2)", to: schema.item)
        #expect(either.plan == "location.name == \"x\" OR (price < 2 AND name LIKE \"a?c\")")
    }

    @Test func measuredSelectivityReordersWithoutChangingResults() throws {
        let schema = TestSchema()
        var rng = SeededGenerator(seed: 7)
        let items = TestData.items(count: 300, &rng)
        for item in items { item.listed = true }
        // Both operands cost the same; only "quantity > 100" is ever false, so measurement
        // moves it first.
        let predicate = try FormatPredicate.bind("listed == YES AND quantity < 100", to: schema.item)
        #expect(predicate.plan == "listed == TRUE AND quantity < 100")
        let expected = items.map { $0.listed && $0.quantity < 100 }
        for _ in 0..<5 {
            #expect(items.map(predicate.evaluate) == expected)
        }
        let skewed = try FormatPredicate.bind("quantity < 100 AND listed == YES AND quantity > 4", to: schema.item)
        let skewedExpected = items.map { $0.quantity > 4 }
        for _ in 0..<5 {
            #expect(items.map(skewed.evaluate) == skewedExpected)
        }
        #expect(skewed.plan.hasPrefix("quantity > 4"))
    }
}
