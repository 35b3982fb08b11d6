import FetchedResults
import Foundation
import Testing
import TestSupport

/// Parsing and binding arbitrary input never traps: it succeeds or throws.
@Suite struct FormatPredicateFuzzTests {
    static let seeds = [
        "name CONTAINS[cd] 'j' AND quantity > 3",
        "(location.storedIn == \"Fridge\" OR location == nil) && !listed == YES",
        "ANY tags.label LIKE[c] '*a?' OR tags.@count BETWEEN {1, 3}",
        "name IN {'a', \"b\", nil} || price >= -2.5e1 AND note MATCHES '[a-z]+'",
        "%K == %@ AND quantity < %d AND price > %f AND name == $NAME",
        "NONE tags.weight <> 0x1F AND ALL tags.label ENDSWITH[d] 'é\\u00e9\\n'",
        "TRUEPREDICATE AND NOT FALSEPREDICATE AND #in == 1",
    ]

    static let fragments = [
        "(", ")", "{", "}", "[", "]", "[cd]", "'", "\"", "\\", ",", ".", "-", "!", "=", "==", "<", ">", "<>", "&&", "||",
        " AND ", " OR ", " NOT ", " ANY ", " ALL ", " IN ", " BETWEEN ", " CONTAINS ", " LIKE ", " MATCHES ", " nil ",
        "%@", "%K", "%d", "%f", "%", "$", "$X", "#", "@", "@count", ".@count", "0x", "1e", "9999999999999999999999",
        "é", "\u{301}", "👍🏽", "ß", " ", "\n", "\0", "name", "tags", "location", "quantity", "TRUEPREDICATE", "\\u{", "\\u",
    ]

    static func mutate(_ text: String, _ rng: inout SeededGenerator) -> String {
        var scalars = Array(text.unicodeScalars)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = scalars.isEmpty ? 0 : Int.random(in: 0...scalars.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0 where !scalars.isEmpty:
                scalars.remove(at: min(position, scalars.count - 1))
            case 1 where scalars.count > 1:
                let other = Int.random(in: 0..<scalars.count, using: &rng)
                scalars.swapAt(min(position, scalars.count - 1), other)
            case 2:
                let scalar = Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng))
                scalars.insert(scalar, at: position)
            case 3 where scalars.count > 2:
                let start = Int.random(in: 0..<scalars.count, using: &rng)
                let end = min(scalars.count, start + Int.random(in: 1...8, using: &rng))
                scalars.insert(contentsOf: scalars[start..<end], at: position)
            default:
                scalars.insert(contentsOf: fragments.randomElement(using: &rng)!.unicodeScalars, at: position)
            }
        }
        var result = ""
        result.unicodeScalars.append(contentsOf: scalars)
        return result
    }

    static func garbage(_ rng: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...40, using: &rng)).map { _ in
            Bool.random(using: &rng)
                ? fragments.randomElement(using: &rng)!
                : String(Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &rng))))
        }.joined()
    }

    static func arguments(for format: String, _ rng: inout SeededGenerator) -> [PredicateValue] {
        let pool: [PredicateValue] = ["name", "quantity", "location.name", "é", 3, 2.5, true, .null, [1, 2], ["a", .null], .date(TestData.epoch)]
        let count = format.filter { $0 == "%" }.count
        return (0..<count).map { _ in pool.randomElement(using: &rng)! }
    }

    @Test(arguments: testSeeds(count: 6))
    func parsingAndBindingNeverTrap(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let schema = TestSchema()
        let items = TestData.items(count: 8, &rng)
        var parsed = 0
        var bound = 0
        for round in 0..<1_500 {
            let format = round % 3 == 0 ? Self.garbage(&rng) : Self.mutate(Self.seeds.randomElement(using: &rng)!, &rng)
            let arguments = Self.arguments(for: format, &rng)
            let predicate: FormatPredicate
            do {
                predicate = try FormatPredicate(format: format, arguments: arguments)
            } catch {
                #expect(error.offset >= 0 && error.offset <= format.utf8.count, "\(format.debugDescription): \(error)")
                _ = error.description
                continue
            }
            parsed += 1
            // The canonical form of a parsed tree parses again to an equal tree.
            expectRoundTrip(predicate, "seed \(seed) round \(round): \(format.debugDescription)")
            do {
                let compiled = try predicate.bind(to: schema.item, variables: ["X": "x", "NAME": "n"])
                bound += 1
                for item in items { _ = compiled.evaluate(item) }
                _ = compiled.plan
            } catch {
                #expect(error.offset >= 0 && error.offset <= format.utf8.count, "\(format.debugDescription): \(error)")
            }
        }
        // The mutations keep a fair share of strings valid, so binding is exercised too.
        #expect(parsed > 50)
        #expect(bound > 10)
    }
}
