import FetchedResults
import Foundation

/// Rows for parsing format strings with large string literals: escapes cost the same per
/// byte as plain characters, and ten times the input takes about ten times as long.
func predicateParseBenchmarks() -> [Benchmark] {
    /// `name == "…"` with a literal of `count` repetitions of `unit`.
    func format(_ unit: String, count: Int) -> String {
        "name == \"" + String(repeating: unit, count: count) + "\""
    }

    /// Parses `text` and checks the literal's length, so the work cannot be skipped.
    func parse(_ text: String, expectedLength: Int, _ row: String) {
        guard let predicate = try? FormatPredicate(text),
            case .comparison(let comparison) = predicate.root,
            case .value(.string(let literal), _) = comparison.rhs
        else { preconditionFailure("\(row): the format did not parse") }
        precondition(literal.unicodeScalars.count == expectedLength, "\(row): the literal has the wrong length")
    }

    let megabyte = 1 << 20
    return [
        Benchmark(
            "predicate.parse.newline-escapes.1mb",
            baseline: "a 1 MB literal of plain characters",
            runs: 5
        ) {
            let plain = format("ab", count: megabyte / 2)
            let escaped = format("\\n", count: megabyte / 2)
            return .init(
                subject: { stopwatch in
                    stopwatch.measure { parse(escaped, expectedLength: megabyte / 2, "newline-escapes") }
                },
                baseline: { stopwatch in
                    stopwatch.measure { parse(plain, expectedLength: megabyte, "plain") }
                })
        },
        Benchmark(
            "predicate.parse.unicode-escapes.1mb",
            baseline: "a 1 MB literal of plain characters",
            runs: 5
        ) {
            let plain = format("abcdef", count: megabyte / 6)
            let escaped = format("\\u{41}", count: megabyte / 6)
            return .init(
                subject: { stopwatch in
                    stopwatch.measure { parse(escaped, expectedLength: megabyte / 6, "unicode-escapes") }
                },
                baseline: { stopwatch in
                    stopwatch.measure { parse(plain, expectedLength: megabyte / 6 * 6, "plain") }
                })
        },
        Benchmark(
            "predicate.parse.newline-escapes.10mb",
            baseline: "the same literal at 1 MB (a ratio near 0.1 is linear scaling)",
            runs: 3
        ) {
            let small = format("\\n", count: megabyte / 2)
            let large = format("\\n", count: 10 * megabyte / 2)
            return .init(
                subject: { stopwatch in
                    stopwatch.measure { parse(large, expectedLength: 10 * megabyte / 2, "10mb") }
                },
                baseline: { stopwatch in
                    stopwatch.measure { parse(small, expectedLength: megabyte / 2, "1mb") }
                })
        },
    ]
}
