import FetchedResults
import Foundation
import Testing
import TestSupport

/// Key paths on the right of a comparison, text options on either side, and key paths with
/// more than one to-many hop.
@Suite struct FormatPredicateKeyPathTests {
    static func item(_ name: String, quantity: Int = 1, tags: [TestTag] = []) -> TestItem {
        let item = TestItem(
            name: name, note: nil, quantity: quantity, price: 1, listed: true, added: TestData.epoch, location: nil,
            tags: tags)
        for tag in tags { tag.items.append(item) }
        return item
    }

    /// A right-hand key path after a quantifier belongs to the evaluated object, not to each
    /// related object (`ANY tags.weight == quantity` compares each tag's weight with the
    /// item's quantity).
    @Test func rightKeyPathAfterQuantifierReadsTheEvaluatedObject() throws {
        let schema = TestSchema()
        let matching = Self.item("a", quantity: 2, tags: [TestTag(label: "x", weight: 2), TestTag(label: "y", weight: 5)])
        let other = Self.item("b", quantity: 3, tags: [TestTag(label: "b", weight: 2)])
        let untagged = Self.item("c", quantity: 2)
        let any = try FormatPredicate.bind("ANY tags.weight == quantity", to: schema.item)
        #expect(any.evaluate(matching))
        #expect(!any.evaluate(other))
        #expect(!any.evaluate(untagged))
        let all = try FormatPredicate.bind("ALL tags.weight <= quantity", to: schema.item)
        #expect(!all.evaluate(matching))
        #expect(all.evaluate(other))
        #expect(all.evaluate(untagged))
        let none = try FormatPredicate.bind("NONE tags.label ==[c] name", to: schema.item)
        #expect(none.evaluate(matching))
        #expect(!none.evaluate(Self.item("B", tags: [TestTag(label: "b", weight: 0)])))
        // Through a to-one hop on the right.
        let location = TestLocation(name: "Fridge", storedIn: nil, floor: 0)
        let stored = Self.item("m", tags: [TestTag(label: "FRIDGE", weight: 0)])
        stored.location = location
        let hop = try FormatPredicate.bind("ANY tags.label ==[c] location.name", to: schema.item)
        #expect(hop.evaluate(stored))
        #expect(!hop.evaluate(matching))
    }

    /// `[c]`/`[cd]` with a key path on the right, or on both sides, binds and evaluates
    /// (it used to read the right key path from a placeholder object and trap).
    @Test(arguments: [
        ("name ==[c] name", true, true),
        ("name !=[cd] name", false, false),
        ("'ÉCLAIR' ==[cd] name", true, false),
        ("'a' ==[c] name", false, true),
        ("'a' !=[cd] name", true, false),
        ("name ==[c] note", false, false),
        ("note ==[cd] name", true, false),
        ("'É' <[cd] name", true, false),
        ("'ACE' BEGINSWITH[c] name", false, true),
        ("name CONTAINS[cd] note", true, false),
        ("name IN[c] {'ÉCLAIR', 'x'}", true, false),
    ])
    func textOptionsWithKeyPathOnTheRight(format: String, eclair: Bool, letterA: Bool) throws {
        let schema = TestSchema(nameFolding: .entityCache)
        let first = TestItem(
            name: "éclair", note: "Eclair", quantity: 1, price: 1, listed: true, added: TestData.epoch, location: nil, tags: [])
        let second = TestItem(
            name: "A", note: nil, quantity: 1, price: 1, listed: true, added: TestData.epoch, location: nil, tags: [])
        for folding in TestSchema.NameFolding.allCases {
            let schema = folding == .entityCache ? schema : TestSchema(nameFolding: folding)
            let bound = try FormatPredicate.bind(format, to: schema.item)
            #expect(bound.evaluate(first) == eclair, "\(format) (\(folding)) on éclair")
            #expect(bound.evaluate(second) == letterA, "\(format) (\(folding)) on A")
            let predicate = try FormatPredicate(format)
            #expect(ReferenceEvaluator.evaluate(predicate.root, first) == eclair, "reference: \(format) on éclair")
            #expect(ReferenceEvaluator.evaluate(predicate.root, second) == letterA, "reference: \(format) on A")
        }
    }

    /// The binder type-checks both sides when text options are given.
    @Test(arguments: [
        ("quantity ==[c] name", 0, "quantity"),
        ("name ==[c] quantity", 11, "quantity"),
        ("3 ==[cd] name", 0, "3"),
        ("name ==[c] location", 11, "location"),
    ])
    func textOptionsRejectNonStringsOnEitherSide(format: String, offset: Int, token: String) throws {
        let schema = TestSchema()
        do {
            _ = try FormatPredicate.bind(format, to: schema.item)
            Issue.record("\(format) bound")
        } catch {
            #expect(error.kind == .typeMismatch, "\(error)")
            #expect(error.offset == offset, "\(error)")
            #expect(error.token == token, "\(error)")
        }
    }

    /// Two to-many hops after a quantifier range over the flattened related objects, as in
    /// NSPredicate (`ANY tags.items.name == 'x'`: some item sharing a tag is named x).
    @Test func twoToManyHopsAfterAQuantifier() throws {
        let schema = TestSchema()
        let shared = TestTag(label: "dairy", weight: 1)
        let lonely = TestTag(label: "misc", weight: 1)
        let milk = Self.item("milk", tags: [shared])
        let cheese = Self.item("cheese", tags: [shared, lonely])
        let bare = Self.item("bare")
        let any = try FormatPredicate.bind("ANY tags.items.name == 'milk'", to: schema.item)
        #expect(any.evaluate(milk))
        #expect(any.evaluate(cheese))
        #expect(!any.evaluate(bare))
        let all = try FormatPredicate.bind("ALL tags.items.name == 'cheese'", to: schema.item)
        #expect(!all.evaluate(milk))
        #expect(all.evaluate(Self.item("cheese", tags: [lonely])))  // lonely holds the two cheeses
        #expect(all.evaluate(bare))
        let none = try FormatPredicate.bind("NONE tags.items.quantity > 1", to: schema.item)
        #expect(none.evaluate(milk))
        let heavy = Self.item("heavy", quantity: 5, tags: [lonely])
        #expect(!none.evaluate(cheese))
        #expect(!none.evaluate(heavy))
        let count = try FormatPredicate.bind("ANY tags.items.tags.@count > 1", to: schema.item)
        #expect(count.evaluate(milk))
        #expect(!count.evaluate(bare))
        for object in [milk, cheese, bare, heavy] {
            for format in ["ANY tags.items.name == 'milk'", "ALL tags.items.name == 'cheese'", "NONE tags.items.quantity > 1"] {
                let predicate = try FormatPredicate(format)
                #expect(try predicate.bind(to: schema.item).evaluate(object) == ReferenceEvaluator.evaluate(predicate.root, object))
            }
        }
    }

    /// A to-many key path without a quantifier, even behind another to-many hop, is an error
    /// with its offset, never a trap.
    @Test(arguments: [
        ("ANY tags.items == nil", 4, "tags.items"),
        ("tags.items.name == 'x'", 0, "tags.items.name"),
        ("ANY tags.items.location.items == nil", 4, "tags.items.location.items"),
    ])
    func toManyWithoutAttributeThrows(format: String, offset: Int, token: String) throws {
        let schema = TestSchema()
        do {
            _ = try FormatPredicate.bind(format, to: schema.item)
            Issue.record("\(format) bound")
        } catch {
            #expect(error.kind == .typeMismatch, "\(error)")
            #expect(error.offset == offset, "\(error)")
            #expect(error.token == token, "\(error)")
        }
    }
}
