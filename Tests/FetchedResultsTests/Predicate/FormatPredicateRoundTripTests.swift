import FetchedResults
import Foundation
import Testing
import TestSupport

extension FormatPredicate.Node {
    /// The tree with every offset set to 0, to compare trees parsed from different strings.
    var withoutOffsets: Self {
        switch self {
        case .constant: return self
        case .not(let inner): return .not(inner.withoutOffsets)
        case .and(let nodes): return .and(nodes.map(\.withoutOffsets))
        case .or(let nodes): return .or(nodes.map(\.withoutOffsets))
        case .comparison(var comparison):
            comparison.lhs = comparison.lhs.withoutOffsets
            comparison.rhs = comparison.rhs.withoutOffsets
            comparison.offset = 0
            return .comparison(comparison)
        }
    }
}

extension FormatPredicate.Expression {
    var withoutOffsets: Self {
        switch self {
        case .keyPath(let path, _): .keyPath(path, offset: 0)
        case .value(let value, _): .value(value, offset: 0)
        case .variable(let name, _): .variable(name, offset: 0)
        case .array(let elements, _): .array(elements.map(\.withoutOffsets), offset: 0)
        }
    }
}

/// Checks that `predicate.description` parses into an equal tree (offsets aside).
func expectRoundTrip(_ predicate: FormatPredicate, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let reparsed = try FormatPredicate(predicate.description)
        #expect(reparsed.root.withoutOffsets == predicate.root.withoutOffsets,
            "\(context): \(predicate.description.debugDescription) parsed as \(reparsed.description.debugDescription)",
            sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(context): \(predicate.description.debugDescription) does not parse: \(error)", sourceLocation: sourceLocation)
    }
}

/// Every predicate's `description` parses back into an equal predicate.
@Suite struct FormatPredicateRoundTripTests {
    @Test(arguments: FormatPredicateParserTests.valid)
    func validTableRoundTrips(format: String, tree: String) throws {
        expectRoundTrip(try FormatPredicate(format), format)
    }

    /// Dates (only arguments or variables) print as `CAST(interval, "NSDate")`, which parses.
    @Test(arguments: [0, 1000, -1.5, 1e-9, 725_846_400.123456, -978_307_200, 1e15])
    func datesRoundTrip(interval: Double) throws {
        let date = Date(timeIntervalSinceReferenceDate: interval)
        let predicate = try FormatPredicate("added < %@ OR added IN %@", .date(date), [.date(date), .null, 3])
        expectRoundTrip(predicate, "\(interval)")
        let literal = try FormatPredicate("added < CAST(\(interval), 'NSDate')")
        #expect(literal.description == "added < CAST(\(interval), \"NSDate\")")
        #expect(try FormatPredicate("added == cast ( 3 , \"NSDate\" )").root.withoutOffsets
            == FormatPredicate("added == %@", .date(Date(timeIntervalSinceReferenceDate: 3))).root.withoutOffsets)
    }

    /// `CAST` reads only a number as an `NSDate`; `cast` is still an ordinary key.
    @Test func castIsOnlyADateLiteral() throws {
        #expect(try FormatPredicate("cast == 1").description == "cast == 1")
        #expect(try FormatPredicate("cast.name == CAST(-2, \"NSDate\")").description == "cast.name == CAST(-2.0, \"NSDate\")")
        for invalid in ["a == CAST('x', 'NSDate')", "a == CAST(1, 'NSString')", "a == CAST(1)", "a == CAST(1, 'NSDate'"] {
            #expect(throws: PredicateSyntaxError.self, "\(invalid)") { try FormatPredicate(invalid) }
        }
    }

    /// Values that used to print in a form the parser rejects or reads differently.
    @Test func edgeValuesRoundTrip() throws {
        let values: [PredicateValue] = [
            .integer(.min), .integer(.max), .double(-0.0), .double(1e300), .double(.leastNonzeroMagnitude), .double(-1e-5),
            .double(.greatestFiniteMagnitude), .string("\"'\\\n\t\r\0é👍🏽"), .string(""), .array([]), .array([.array([1]), "x"]),
        ]
        for value in values {
            expectRoundTrip(try FormatPredicate("a == %@", value), "\(value)")
            expectRoundTrip(try FormatPredicate("%@ IN {%@, 1}", value, value), "\(value) in an array")
        }
        expectRoundTrip(try FormatPredicate("%K == 1", "in.nil.@count"), "reserved words as keys")
    }

    /// Non-finite numbers and key paths that the grammar cannot spell are argument errors.
    @Test func unprintableArgumentsAreRejected() {
        for (format, argument) in [("a == %@", PredicateValue.double(.nan)), ("a == %f", .double(.infinity)),
                                   ("a IN %@", [1, .double(-.infinity)]), ("%K == 1", "a b"), ("%K == 1", "1a"),
                                   ("%K == 1", "a.@COUNTS")] {
            #expect(throws: PredicateSyntaxError.self, "\(format) with \(argument)") {
                try FormatPredicate(format: format, arguments: [argument])
            }
        }
    }

    // MARK: Random trees

    static func value(_ rng: inout SeededGenerator, depth: Int = 0) -> PredicateValue {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .integer([Int.min, Int.max, 0, -1, Int.random(in: -1000...1000, using: &rng)].randomElement(using: &rng)!)
        case 3:
            let bits = rng.next()
            let double = Double(bitPattern: bits)
            return .double(double.isFinite ? double : Double(Int.random(in: -99...99, using: &rng)) / 8)
        case 4:
            let interval = Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &rng)) / 7
            return .date(Date(timeIntervalSinceReferenceDate: interval))
        case 5 where depth < 2:
            return .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            let pool = ["", "a", "\"", "'", "\\", "\n", "\t", "\r", "\0", "é", "e\u{301}", "👍🏽", "ß", "*?", "%@", "$x", " ", "{", "}"]
            return .string((0..<Int.random(in: 0...4, using: &rng)).map { _ in pool.randomElement(using: &rng)! }.joined())
        }
    }

    static func expression(_ rng: inout SeededGenerator) -> FormatPredicate.Expression {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0, 1:
            let keys = ["name", "tags", "label", "in", "NIL", "cast", "größe", "_x1", "@count", "Any"]
            var path = (0..<Int.random(in: 1...3, using: &rng)).map { _ in keys.randomElement(using: &rng)! }
            if path.first == "@count" { path[0] = "name" }
            return .keyPath(path, offset: 0)
        case 2: return .variable(["text", "X", "in_1"].randomElement(using: &rng)!, offset: 0)
        case 3: return .array([.variable("a", offset: 0), .value(value(&rng), offset: 0)], offset: 0)
        default: return .value(value(&rng), offset: 0)
        }
    }

    /// A random tree shaped as the parser builds them: compounds of two or more operands,
    /// never directly inside a compound of the same kind.
    static func node(_ rng: inout SeededGenerator, depth: Int, parent: Int = -1) -> FormatPredicate.Node {
        let kind = depth == 0 ? Int.random(in: 3...4, using: &rng) : Int.random(in: 0...4, using: &rng)
        switch kind {
        case 0: return .not(node(&rng, depth: depth - 1))
        case 1 where parent != 1:
            return .and((0..<Int.random(in: 2...3, using: &rng)).map { _ in node(&rng, depth: depth - 1, parent: 1) })
        case 2 where parent != 2:
            return .or((0..<Int.random(in: 2...3, using: &rng)).map { _ in node(&rng, depth: depth - 1, parent: 2) })
        case 3: return .constant(Bool.random(using: &rng))
        default:
            let quantifier: FormatPredicate.Quantifier? = [nil, .any, .all, .notAny].randomElement(using: &rng)!
            let options = [TextComparisonOptions(), [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]
            return .comparison(FormatPredicate.Comparison(
                quantifier: quantifier, expression(&rng), FormatPredicate.Operator.allCases.randomElement(using: &rng)!,
                options: options.randomElement(using: &rng)!, expression(&rng)))
        }
    }

    @Test(arguments: testSeeds(count: 6))
    func randomTreesRoundTrip(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        for round in 0..<400 {
            let predicate = FormatPredicate(Self.node(&rng, depth: 3))
            expectRoundTrip(predicate, "seed \(seed) round \(round)")
        }
    }
}
