import FetchedResults
import Foundation
import Testing
import TestSupport

/// Compiled predicates against `ReferenceEvaluator` over generated objects.
@Suite struct FormatPredicateSemanticsTests {
    static let optionSuffixes = ["", "[c]", "[d]", "[cd]"]

    /// A needle outside the documented Foundation corners (see `FoldedText`).
    static func needle(_ rng: inout SeededGenerator) -> String {
        while true {
            let candidate = TextSamples.needle(for: TextSamples.string(&rng, maxLength: 4), &rng)
            let first = candidate.unicodeScalars.first
            if first?.properties.isGraphemeExtend == true { continue }
            if candidate.contains(where: { ["ß", "ẞ", "ﬁ", "ﬀ"].contains($0) }) { continue }
            return candidate
        }
    }

    static func stringKey(_ rng: inout SeededGenerator) -> String {
        ["name", "note", "location.name", "location.storedIn", "name", "name"].randomElement(using: &rng)!
    }

    /// One random comparison with its arguments.
    static func comparison(_ rng: inout SeededGenerator, arguments: inout [PredicateValue]) -> String {
        let orderings = ["==", "!=", "<", "<=", ">", ">=", "=", "<>", "=<", "=>"]
        let options = optionSuffixes.randomElement(using: &rng)!
        switch Int.random(in: 0..<21, using: &rng) {
        case 0:
            return "quantity \(orderings.randomElement(using: &rng)!) \(Int.random(in: -2...6, using: &rng))"
        case 1:
            return "price \(orderings.randomElement(using: &rng)!) \(Double(Int.random(in: 0...20, using: &rng)) / 4)"
        case 2:
            return ["quantity > price", "quantity BETWEEN {1, 4}", "price BETWEEN {1.5, 3}", "quantity IN {1, 3, 5}",
                "price IN {0.5, 2, 3}", "location.floor == 1", "tags.@count > 1", "tags.@count == 0",
                "location.items.@count >= 3", "3 < quantity"].randomElement(using: &rng)!
        case 3:
            return ["listed == YES", "listed != TRUE", "listed == NO", "note == nil", "note != NULL", "location == nil",
                "location != nil", "location.storedIn == nil", "nil == note"].randomElement(using: &rng)!
        case 4:
            arguments.append(.date(TestData.epoch.addingTimeInterval(Double(Int.random(in: 0...10, using: &rng)) * 86_400)))
            return "added \(orderings.randomElement(using: &rng)!) %@"
        case 5, 6, 7, 8:
            arguments.append(.string(needle(&rng)))
            let op = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "contains", "beginswith"].randomElement(using: &rng)!
            return "\(stringKey(&rng)) \(op)\(options) %@"
        case 9:
            arguments.append(.string(needle(&rng)))
            return "\(stringKey(&rng)) \(["==", "!="].randomElement(using: &rng)!)\(options) %@"
        case 10:
            arguments.append(.array((0..<3).map { _ in .string(needle(&rng)) } + [.null]))
            return "\(stringKey(&rng)) IN\(options) %@"
        case 11:
            var pattern = ""
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: pattern += "*"
                case 1: pattern += "?"
                default: pattern += needle(&rng).replacingOccurrences(of: "*", with: "").replacingOccurrences(of: "?", with: "")
                }
            }
            arguments.append(.string(pattern))
            return "\(stringKey(&rng)) LIKE\(options) %@"
        case 12:
            arguments.append(.string(["[a-z]+", ".*e.*", "a.*", "(?:ss|s).*", ".*", "[^ ]*", "e\\u0301.*"].randomElement(using: &rng)!))
            return "\(stringKey(&rng)) MATCHES\(options) %@"
        case 13:
            arguments.append(.string(needle(&rng)))
            return "\(["ANY", "ALL", "NONE", "SOME"].randomElement(using: &rng)!) tags.label \(["CONTAINS", "==", "BEGINSWITH"].randomElement(using: &rng)!)\(options) %@"
        case 14:
            return "\(["ANY", "ALL", "NONE"].randomElement(using: &rng)!) tags.weight \(orderings.randomElement(using: &rng)!) \(Int.random(in: 0...4, using: &rng))"
        case 15:
            arguments.append(.string(needle(&rng)))
            return "name \(["<", ">", "<=", ">="].randomElement(using: &rng)!)\(options) %@"
        default:
            return keyPathComparison(&rng, arguments: &arguments)
        }
    }

    /// A comparison with a key path on the left, the right or both sides, with text options
    /// and quantifiers (a right-hand key path always reads the evaluated item).
    static func keyPathComparison(_ rng: inout SeededGenerator, arguments: inout [PredicateValue]) -> String {
        let options = optionSuffixes.randomElement(using: &rng)!
        let textOperators = ["==", "!=", "<", "<=", ">", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH"]
        let numberOperators = ["==", "!=", "<", "<=", ">", ">="]
        let quantifier = ["ANY", "ALL", "NONE", "SOME"].randomElement(using: &rng)!
        switch Int.random(in: 0..<7, using: &rng) {
        case 0:
            // Key paths on both sides.
            return "\(stringKey(&rng)) \(textOperators.randomElement(using: &rng)!)\(options) \(stringKey(&rng))"
        case 1:
            // A constant on the left, a key path on the right.
            arguments.append(.string(needle(&rng)))
            return "%@ \(textOperators.randomElement(using: &rng)!)\(options) \(stringKey(&rng))"
        case 2:
            return "\(["quantity", "price", "location.floor", "tags.@count"].randomElement(using: &rng)!) \(numberOperators.randomElement(using: &rng)!) \(["quantity", "price", "location.floor", "location.items.@count"].randomElement(using: &rng)!)"
        case 3:
            return "\(quantifier) tags.label \(textOperators.randomElement(using: &rng)!)\(options) \(stringKey(&rng))"
        case 4:
            return "\(quantifier) tags.weight \(numberOperators.randomElement(using: &rng)!) \(["quantity", "location.floor", "tags.@count"].randomElement(using: &rng)!)"
        case 5:
            // Two to-many hops, with a key path or a constant on the right.
            if Bool.random(using: &rng) {
                return "\(quantifier) tags.items.name \(["==", "!=", "BEGINSWITH", "<"].randomElement(using: &rng)!)\(options) \(stringKey(&rng))"
            }
            return "\(quantifier) tags.items.quantity \(numberOperators.randomElement(using: &rng)!) \(Int.random(in: -2...6, using: &rng))"
        default:
            return "\(quantifier) location.items.name \(["==", "CONTAINS", ">="].randomElement(using: &rng)!)\(options) \(stringKey(&rng))"
        }
    }

    static func predicate(_ rng: inout SeededGenerator, depth: Int, arguments: inout [PredicateValue]) -> String {
        if depth == 0 || Int.random(in: 0..<3, using: &rng) == 0 {
            return comparison(&rng, arguments: &arguments)
        }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return "NOT (\(predicate(&rng, depth: depth - 1, arguments: &arguments)))"
        case 1, 2:
            let joiner = [" AND ", " && "].randomElement(using: &rng)!
            return "(" + (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(&rng, depth: depth - 1, arguments: &arguments) }
                .joined(separator: joiner) + ")"
        default:
            let joiner = [" OR ", " || "].randomElement(using: &rng)!
            return "(" + (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(&rng, depth: depth - 1, arguments: &arguments) }
                .joined(separator: joiner) + ")"
        }
    }

    @Test(arguments: testSeeds(count: 8))
    func compiledPredicatesMatchReference(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let schema = TestSchema(nameFolding: TestSchema.NameFolding.allCases[Int(seed % 3)])
        let items = TestData.items(count: 150, &rng)
        var failures: [String] = []
        for _ in 0..<60 {
            var arguments: [PredicateValue] = []
            let format = Self.predicate(&rng, depth: 2, arguments: &arguments)
            let predicate = try FormatPredicate(format: format, arguments: arguments)
            let bound = try predicate.bind(to: schema.item)
            // Several passes, so measured selectivity reorders compound predicates midway.
            let expected = items.map { ReferenceEvaluator.evaluate(predicate.root, $0) }
            for pass in 0..<8 {
                for (item, expected) in zip(items, expected) {
                    if bound.evaluate(item) != expected {
                        failures.append("pass \(pass): \(predicate) on name \(item.name.debugDescription) note \(item.note.debugDescription) location \(item.location.map { "\($0.name.debugDescription)/\($0.storedIn.debugDescription)" } ?? "nil") tags \(item.tags.map(\.label)): expected \(expected)")
                    }
                }
                if !failures.isEmpty { break }
            }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.count) failures:\n\(failures.prefix(10).joined(separator: "\n"))")
    }

    /// Predicates keep IEEE semantics for NaN, as Swift and NSPredicate do, whether the other
    /// side is a constant or read from the object: NaN is not ordered or equal, only `!=`.
    @Test func nanComparesAsInSwift() throws {
        let schema = TestSchema()
        func matches(_ format: String, price: Double, quantity: Int = 3) throws -> Bool {
            let item = TestItem(name: "x", note: nil, quantity: quantity, price: price, listed: true, added: TestData.epoch, location: nil, tags: [])
            return try FormatPredicate(format).bind(to: schema.item).evaluate(item)
        }
        for format in ["price < 5", "price <= 5", "price > 5", "price >= 5", "price == 5", "price BETWEEN {0, 9}",
                       "price IN {1, 2}", "quantity < price", "quantity <= price", "quantity > price", "quantity >= price",
                       "price <= price", "price >= price", "price == price", "5 > price"] {
            #expect(try !matches(format, price: .nan), "\(format)")
        }
        #expect(try matches("price != 5", price: .nan))
        #expect(try matches("price != price", price: .nan))
        #expect(try matches("price <= price", price: -0.0) && matches("price == 0", price: -0.0) && matches("price >= 0.0", price: -0.0))
        #expect(try matches("price > 1000000", price: .infinity) && matches("quantity < price", price: .infinity))
    }
}
