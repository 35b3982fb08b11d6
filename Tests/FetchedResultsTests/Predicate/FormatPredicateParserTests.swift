import FetchedResults
import Foundation
import Testing

@Suite struct FormatPredicateParserTests {
    /// Valid strings and their trees, in canonical form.
    static let valid: [(String, String)] = [
        ("name == \"Milk\"", "name == \"Milk\""),
        ("name = 'Milk'", "name == \"Milk\""),
        ("quantity != 3", "quantity != 3"),
        ("quantity <> 3", "quantity != 3"),
        ("quantity < 3", "quantity < 3"),
        ("quantity <= 3", "quantity <= 3"),
        ("quantity =< 3", "quantity <= 3"),
        ("quantity > -3", "quantity > -3"),
        ("quantity >= 2.5", "quantity >= 2.5"),
        ("quantity => 1e3", "quantity >= 1000.0"),
        ("quantity == 0x1F", "quantity == 31"),
        ("quantity BETWEEN {1, 5}", "quantity BETWEEN {1, 5}"),
        ("quantity between {1, $max}", "quantity BETWEEN {1, $max}"),
        ("name IN {'a', 'b'}", "name IN {\"a\", \"b\"}"),
        ("name IN {}", "name IN {}"),
        ("name CONTAINS[cd] 'j'", "name CONTAINS[cd] \"j\""),
        ("name contains[DC] 'j'", "name CONTAINS[cd] \"j\""),
        ("name BEGINSWITH[c] 'j'", "name BEGINSWITH[c] \"j\""),
        ("name endswith[d] 'j'", "name ENDSWITH[d] \"j\""),
        ("name LIKE 'a*b?'", "name LIKE \"a*b?\""),
        ("name MATCHES '[a-z]+'", "name MATCHES \"[a-z]+\""),
        ("a == 1 AND b == 2 AND c == 3", "a == 1 AND b == 2 AND c == 3"),
        ("a == 1 && b == 2 || c == 3", "(a == 1 AND b == 2) OR c == 3"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("NOT a == 1", "NOT a == 1"),
        ("!(a == 1 || b == 2)", "NOT (a == 1 OR b == 2)"),
        ("not not a == 1", "NOT NOT a == 1"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate OR TruePredicate", "FALSEPREDICATE OR TRUEPREDICATE"),
        ("location == nil", "location == nil"),
        ("location != NULL", "location != nil"),
        ("listed == YES", "listed == TRUE"),
        ("listed == false", "listed == FALSE"),
        ("locationAtHome.storedIn == 'Fridge'", "locationAtHome.storedIn == \"Fridge\""),
        ("ANY items.name == 'x'", "ANY items.name == \"x\""),
        ("SOME items.name == 'x'", "ANY items.name == \"x\""),
        ("ALL items.quantity > 0", "ALL items.quantity > 0"),
        ("NONE items.listed == TRUE", "NONE items.listed == TRUE"),
        ("items.@count > 2", "items.@count > 2"),
        ("items.@COUNT == 0", "items.@count == 0"),
        ("#in == 1", "#in == 1"),
        ("name == $NAME", "name == $NAME"),
        ("'x' == name", "\"x\" == name"),
        ("name == \"a\\\"b\\\\c\\n\"", "name == \"a\\\"b\\\\c\\n\""),
        ("name == '\\u00e9\\u{1F600}'", "name == \"é😀\""),
        ("name == 'crème'", "name == \"crème\""),
        ("größe > 1", "größe > 1"),
        ("  quantity\t>\n1  ", "quantity > 1"),
        ("quantity IN {1, 2.5, nil}", "quantity IN {1, 2.5, nil}"),
    ]

    @Test(arguments: valid)
    func parsesValidString(format: String, tree: String) throws {
        let predicate = try FormatPredicate(format)
        #expect(predicate.description == tree)
        // The canonical form parses to the same tree.
        #expect(try FormatPredicate(predicate.description).description == tree)
    }

    @Test func substitutesArguments() throws {
        let predicate = try FormatPredicate(
            "%K CONTAINS[cd] %@ AND quantity > %d AND price < %f AND tags IN %@", "name", "milk", 3, 2, ["a", "b"])
        #expect(predicate.description == "name CONTAINS[cd] \"milk\" AND quantity > 3 AND price < 2.0 AND tags IN {\"a\", \"b\"}")
        let keyPath = try FormatPredicate("%K == %ld", "location.name", 7)
        #expect(keyPath.description == "location.name == 7")
        #expect(keyPath.root == .comparison(.init(.keyPath(["location", "name"], offset: 0), .equal, .value(.integer(7), offset: 6), offset: 3)))
    }

    @Test func recordsOffsets() throws {
        let predicate = try FormatPredicate("a == 1 AND bé CONTAINS[c] 'x'")
        guard case .and(let nodes) = predicate.root, case .comparison(let second) = nodes[1] else {
            Issue.record("expected an AND of two comparisons")
            return
        }
        #expect(second.lhs.offset == 11)
        #expect(second.offset == 15)  // "bé" is 3 UTF-8 bytes
        #expect(second.rhs.offset == 27)
    }

    /// Invalid strings, the error's kind and offset, and (part of) what was expected.
    static let invalid: [(String, PredicateSyntaxError.Kind, Int, String)] = [
        ("", .syntax, 0, "a key path"),
        ("name ==", .syntax, 7, "a key path"),
        ("name", .syntax, 4, "a comparison operator"),
        ("name 'x'", .syntax, 5, "a comparison operator"),
        ("name == 'x", .syntax, 8, "a closing '"),
        ("name == \"x", .syntax, 8, "a closing \""),
        ("(name == 'x'", .syntax, 12, "a closing parenthesis"),
        ("name == 'x')", .syntax, 11, "AND, OR or the end"),
        ("name == 'x' AND", .syntax, 15, "a key path"),
        ("name == 'x' name == 'y'", .syntax, 12, "AND, OR or the end"),
        ("name CONTAINS[x] 'a'", .syntax, 14, "c, d or cd"),
        ("name CONTAINS[c 'a'", .syntax, 16, "]"),
        ("name CONTAINS[] 'a'", .syntax, 14, "c, d or cd"),
        ("quantity == 12abc", .syntax, 12, "a number"),
        ("quantity == 99999999999999999999", .syntax, 12, "fits in 64 bits"),
        ("quantity == -x", .syntax, 13, "a number after -"),
        ("name == 'a' AND AND b == 1", .syntax, 16, "use #AND"),
        ("name == %@", .missingArgument, 8, "an argument for %@"),
        ("name == %q", .syntax, 8, "a format specifier"),
        ("items.@sum > 1", .unsupported, 6, "@count"),
        ("quantity IN {1, 2", .syntax, 17, ", or }"),
        ("name == '\\u{110000}'", .syntax, 9, "Unicode scalar escape"),
        ("name == $", .syntax, 8, "a name after $"),
        ("a.b. == 1", .syntax, 5, "a key"),
        ("name ~ 1", .syntax, 5, "an operator"),
        (String(repeating: "(", count: 150) + "a == 1" + String(repeating: ")", count: 150), .unsupported, 100, "nesting"),
    ]

    @Test(arguments: invalid)
    func rejectsInvalidString(format: String, kind: PredicateSyntaxError.Kind, offset: Int, expected: String) {
        #expect {
            try FormatPredicate(format)
        } throws: { error in
            guard let error = error as? PredicateSyntaxError else { return false }
            return error.kind == kind && error.offset == offset && error.expected.contains(expected)
        }
    }

    @Test func argumentErrors() {
        #expect(throws: PredicateSyntaxError.self) { try FormatPredicate("%K == 1", 3) }
        #expect(throws: PredicateSyntaxError.self) { try FormatPredicate("%K == 1", "a..b") }
        #expect(throws: PredicateSyntaxError.self) { try FormatPredicate("a == %d", "x") }
        #expect(throws: PredicateSyntaxError.self) { try FormatPredicate("a == %f", "x") }
        do {
            _ = try FormatPredicate("a == 1", "extra")
            Issue.record("an unused argument must throw")
        } catch {
            #expect(error.kind == .unusedArgument)
            #expect(error.offset == 6)
        }
    }

    @Test func errorDescriptionShowsCaret() {
        do {
            _ = try FormatPredicate("naïve == 'x' OR")
            Issue.record("expected an error")
        } catch {
            #expect(error.token == "")
            #expect(error.description == """
                syntax error at offset 16: found the end of the input, expected a key path, literal, variable or format specifier
                naïve == 'x' OR
                               ^
                """)
        }
    }

    /// A long format string is shown as an excerpt around the offset, with the offset of the
    /// whole string: a malformed 1 MB predicate makes a message of a few lines, not 2 MB.
    @Test func errorDescriptionOfALongInputIsAnExcerpt() {
        let head = String(repeating: "name == 'x' AND ", count: 40_000)
        let format = head + "quantity >> 3 AND " + String(repeating: "listed == YES OR ", count: 20_000)
        do {
            _ = try FormatPredicate(format)
            Issue.record("expected an error")
        } catch {
            let offset = head.utf8.count + "quantity >".utf8.count
            #expect(error.offset == offset)
            #expect(error.format.utf8.count == format.utf8.count)
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3)
            #expect(lines[0].hasPrefix("syntax error at offset \(offset): found >, expected"))
            let radius = PredicateSyntaxError.excerptRadius
            let after = String(String(repeating: "listed == YES OR ", count: 3).prefix(radius - "> 3 AND ".count))
            #expect(lines[1] == "…" + head.suffix(radius - "quantity >".count) + "quantity >> 3 AND " + after + "…")
            #expect(lines[1].count == 2 * radius + 2)
            // The caret stands under the offending token in the excerpt.
            #expect(lines[2] == String(repeating: " ", count: radius + 1) + "^")
            #expect(error.description.utf8.count < 400)
        }
        // A long token is cut as well.
        let long = PredicateSyntaxError(.syntax, format: String(repeating: "z", count: 1_000), offset: 0, token: String(repeating: "z", count: 1_000), expected: "x")
        #expect(long.description.hasPrefix("syntax error at offset 0: found \(String(repeating: "z", count: PredicateSyntaxError.excerptRadius))…, expected x\n"))
        #expect(long.description.utf8.count < 300)
    }
}
