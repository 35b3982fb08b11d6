import FetchedResults
import Foundation

/// Evaluates a predicate tree the slow, obvious way: dynamic key lookups and Foundation's
/// string functions (`range(of:options:)`, `compare(_:options:)`, `NSRegularExpression`) on
/// the raw strings. The reference the compiled predicates are checked against.
enum ReferenceEvaluator {
    static func evaluate(_ node: FormatPredicate.Node, _ object: AnyObject) -> Bool {
        switch node {
        case .constant(let value): return value
        case .not(let inner): return !evaluate(inner, object)
        case .and(let nodes): return nodes.allSatisfy { evaluate($0, object) }
        case .or(let nodes): return nodes.contains { evaluate($0, object) }
        case .comparison(let comparison): return evaluate(comparison, object)
        }
    }

    static func value(of object: AnyObject, _ key: String) -> Any? {
        switch object {
        case let item as TestItem: item.value(forKey: key)
        case let location as TestLocation: location.value(forKey: key)
        case let tag as TestTag: tag.value(forKey: key)
        default: nil
        }
    }

    static func toMany(_ object: AnyObject, _ key: String) -> [AnyObject]? {
        switch (object, key) {
        case (let item as TestItem, "tags"): item.tags
        case (let location as TestLocation, "items"): location.items
        case (let tag as TestTag, "items"): tag.items
        default: nil
        }
    }

    /// Resolves a key path; `.many` when it crosses a to-many relationship.
    enum Resolved {
        case value(Any?)
        case many([AnyObject], rest: [String])
    }

    static func resolve(_ path: [String], _ object: AnyObject) -> Resolved {
        var current: AnyObject? = object
        for (index, key) in path.enumerated() {
            guard let here = current else {
                // A nil to-one hop before a to-many relationship: no related objects.
                let rest = path[index...]
                let crossesToMany = zip(rest, rest.dropFirst().map(Optional.some) + [nil]).contains { key, next in
                    ["tags", "items"].contains(key) && next != "@count"
                }
                return crossesToMany ? .many([], rest: []) : .value(nil)
            }
            if let related = toMany(here, key) {
                if index + 1 < path.count, path[index + 1] == "@count" { return .value(related.count) }
                return .many(related, rest: Array(path[(index + 1)...]))
            }
            let next = value(of: here, key)
            if index == path.count - 1 { return .value(next) }
            current = next as AnyObject?
        }
        return .value(current)
    }

    static func operand(_ expression: FormatPredicate.Expression, _ object: AnyObject) -> Any? {
        switch expression {
        case .keyPath(let path, _):
            if case .value(let value) = resolve(path, object) { return value }
            return nil
        case .value(let value, _): return plain(value)
        case .variable, .array: return nil
        }
    }

    static func plain(_ value: PredicateValue) -> Any? {
        switch value {
        case .null: nil
        case .bool(let flag): flag
        case .integer(let number): number
        case .double(let number): number
        case .string(let text): text
        case .date(let date): date
        case .array(let values): values.map(plain)
        }
    }

    /// The values a key path reaches through every to-many hop (flattened, as NSPredicate
    /// flattens `ANY tags.items.name`), or `nil` when it crosses no to-many relationship.
    static func flattened(_ path: [String], _ object: AnyObject) -> [Any?]? {
        guard case .many(let elements, let rest) = resolve(path, object) else { return nil }
        return elements.flatMap { element -> [Any?] in
            flattened(rest, element) ?? [operand(.keyPath(rest, offset: 0), element)]
        }
    }

    static func evaluate(_ comparison: FormatPredicate.Comparison, _ object: AnyObject) -> Bool {
        // Both sides read from the evaluated object; a to-many left side yields one value
        // per related object, compared with the right side read once from the object.
        let rhs = operand(comparison.rhs, object)
        if case .keyPath(let path, _) = comparison.lhs, let values = flattened(path, object) {
            let results = values.map { compare($0, comparison.op, comparison.options, rhs) }
            switch comparison.quantifier {
            case .any: return results.contains(true)
            case .all: return !results.contains(false)
            case .notAny: return !results.contains(true)
            case nil: preconditionFailure("a to-many key path without a quantifier")
            }
        }
        let lhs = operand(comparison.lhs, object)
        return compare(lhs, comparison.op, comparison.options, rhs)
    }

    static func foundationOptions(_ options: TextComparisonOptions) -> String.CompareOptions {
        var result: String.CompareOptions = []
        if options.contains(.caseInsensitive) { result.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { result.insert(.diacriticInsensitive) }
        return result
    }

    static func equal(_ lhs: Any?, _ rhs: Any?, _ options: TextComparisonOptions) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let l as String, let r as String):
            return options.isEmpty ? l == r : l.compare(r, options: foundationOptions(options)) == .orderedSame
        case (let l as Bool, let r as Bool): return l == r
        case (let l as Date, let r as Date): return l == r
        case (let l as Int, let r as Int): return l == r
        default:
            guard let l = number(lhs), let r = number(rhs) else { return false }
            return l == r
        }
    }

    static func number(_ value: Any?) -> Double? {
        switch value {
        case let value as Int: Double(value)
        case let value as Double: value
        default: nil
        }
    }

    static func less(_ lhs: Any?, _ rhs: Any?, _ options: TextComparisonOptions) -> Bool? {
        switch (lhs, rhs) {
        case (let l as String, let r as String):
            if options.isEmpty { return l < r }
            let folded = (FoldedText(l, options: options).bytes, FoldedText(r, options: options).bytes)
            return folded.0.lexicographicallyPrecedes(folded.1)
        case (let l as Date, let r as Date): return l < r
        default:
            guard let l = number(lhs), let r = number(rhs) else { return nil }
            return l < r
        }
    }

    static func compare(_ lhs: Any?, _ op: FormatPredicate.Operator, _ options: TextComparisonOptions, _ rhs: Any?) -> Bool {
        let foundation = foundationOptions(options)
        switch op {
        case .equal: return equal(lhs, rhs, options)
        case .notEqual: return !equal(lhs, rhs, options)
        case .less: return less(lhs, rhs, options) ?? false
        case .lessOrEqual: return less(rhs, lhs, options).map(!) ?? false
        case .greater: return less(rhs, lhs, options) ?? false
        case .greaterOrEqual: return less(lhs, rhs, options).map(!) ?? false
        case .between:
            guard let bounds = rhs as? [Any?], bounds.count == 2, lhs != nil else { return false }
            return compare(lhs, .greaterOrEqual, options, bounds[0]) && compare(lhs, .lessOrEqual, options, bounds[1])
        case .in:
            guard let values = rhs as? [Any?] else { return false }
            return values.contains { equal(lhs, $0, options) }
        case .contains:
            guard let text = lhs as? String, let needle = rhs as? String else { return false }
            return text.range(of: needle, options: foundation) != nil
        case .beginsWith:
            guard let text = lhs as? String, let needle = rhs as? String else { return false }
            return text.range(of: needle, options: foundation.union(.anchored)) != nil
        case .endsWith:
            guard let text = lhs as? String, let needle = rhs as? String else { return false }
            return hasSuffix(text, needle, foundation)
        case .like:
            guard let text = lhs as? String, let pattern = rhs as? String else { return false }
            return like(text[...], tokens(pattern)[...], foundation)
        case .matches:
            guard var text = lhs as? String, let pattern = rhs as? String else { return false }
            if options.contains(.diacriticInsensitive) { text = text.folding(options: .diacriticInsensitive, locale: nil) }
            // A pattern that does not compile matches nothing.
            guard let regex = try? NSRegularExpression(
                pattern: "^(?:\(pattern))$", options: options.contains(.caseInsensitive) ? [.caseInsensitive] : [])
            else { return false }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
    }

    /// A forward anchored search, from some scalar position, that ends at the end.
    static func hasSuffix(_ text: String, _ needle: String, _ options: String.CompareOptions) -> Bool {
        var index = text.startIndex
        while index < text.endIndex {
            if let range = text[index...].range(of: needle, options: options.union(.anchored)), range.upperBound == text.endIndex {
                return true
            }
            text.unicodeScalars.formIndex(after: &index)
        }
        return false
    }

    enum Token { case literal(String), one, any }

    static func tokens(_ pattern: String) -> [Token] {
        var result: [Token] = []
        var literal = ""
        for character in pattern {
            switch character {
            case "*", "?":
                if !literal.isEmpty { result.append(.literal(literal)); literal = "" }
                result.append(character == "*" ? .any : .one)
            default: literal.append(character)
            }
        }
        if !literal.isEmpty { result.append(.literal(literal)) }
        return result
    }

    /// Wildcard matching by backtracking over characters, literals by anchored search.
    static func like(_ text: Substring, _ tokens: ArraySlice<Token>, _ options: String.CompareOptions) -> Bool {
        guard let first = tokens.first else { return text.isEmpty }
        let rest = tokens.dropFirst()
        switch first {
        case .literal(let literal):
            guard let range = text.range(of: literal, options: options.union(.anchored)) else { return false }
            return like(text[range.upperBound...], rest, options)
        case .one:
            guard !text.isEmpty else { return false }
            return like(text.dropFirst(), rest, options)
        case .any:
            var index = text.startIndex
            while true {
                if like(text[index...], rest, options) { return true }
                if index == text.endIndex { return false }
                text.formIndex(after: &index)
            }
        }
    }
}
