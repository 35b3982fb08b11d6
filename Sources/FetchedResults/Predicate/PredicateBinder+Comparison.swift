import Foundation

extension PredicateBinder {
    /// Type-checks one comparison (no to-many key paths left) and compiles it.
    func compare(
        _ comparison: FormatPredicate.Comparison, lhsExpression: FormatPredicate.Expression,
        rhsExpression: FormatPredicate.Expression, _ entity: AnyPredicateEntity
    ) throws(PredicateSyntaxError) -> PredicateStep {
        let lhs = try operand(lhsExpression, entity)
        let rhs = try operand(rhsExpression, entity)
        let written = FormatPredicate.Comparison(lhsExpression, comparison.op, options: comparison.options, rhsExpression).description
        return try compare(comparison, lhs, rhs, written: written)
    }

    /// Type-checks one comparison of resolved operands and compiles it.
    ///
    /// `comparison` is the comparison as written (before variables are substituted), for its
    /// operator, options and where its pattern came from; `written` is its text in plans.
    func compare(
        _ comparison: FormatPredicate.Comparison, _ lhs: PredicateOperand, _ rhs: PredicateOperand, written: String
    ) throws(PredicateSyntaxError) -> PredicateStep {
        let op = comparison.op
        let options = comparison.options
        let hops = Double(lhs.hops + rhs.hops)
        if !options.isEmpty {
            // Either side may be the key path; each must be text (or nil, or an array for IN).
            let textKinds: [PredicateOperand.Kind] = [.string, .array, .null]
            let textual = (lhs.kind == .string || rhs.kind == .string) && textKinds.contains(lhs.kind)
                && textKinds.contains(rhs.kind)
            guard textual else {
                let culprit = textKinds.contains(lhs.kind) ? rhs : lhs
                throw mismatch(culprit, expected: "a string: \(options) applies to strings only (\(culprit.role))")
            }
        }
        var step: PredicateStep
        switch op {
        case .equal, .notEqual:
            step = try equality(lhs, rhs, options: options)
            if op == .notEqual {
                let equal = step.evaluate
                step.evaluate = { !equal($0) }
            }
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            step = try ordering(lhs, rhs, op, options: options)
        case .between:
            step = try between(lhs, rhs, options: options)
        case .in:
            step = try membership(lhs, rhs, options: options)
        case .contains, .beginsWith, .endsWith:
            step = try search(lhs, rhs, op, options: options)
        case .like:
            step = try like(lhs, rhs, options: options)
        case .matches:
            var isVariable = false
            if case .variable = comparison.rhs { isVariable = true }
            step = try matches(lhs, rhs, options: options, patternIsVariable: isVariable)
        }
        step.cost += hops
        step.describe = { written }
        if lhs.isConstant && rhs.isConstant {
            // Both sides constant: decide now (any object will do; constants ignore it).
            let value = step.evaluate(Placeholder.shared)
            return PredicateStep(evaluate: { _ in value }, cost: 0, describe: { written })
        }
        return step
    }

    /// The object constant comparisons are evaluated with at bind time.
    private final class Placeholder: Sendable {
        static let shared = Placeholder()
    }

    // MARK: Type checks

    private func requireSameKind(_ lhs: PredicateOperand, _ rhs: PredicateOperand, allowNull: Bool) throws(PredicateSyntaxError) {
        if lhs.kind == rhs.kind || (lhs.kind.isNumeric && rhs.kind.isNumeric) { return }
        if allowNull && (lhs.kind == .null || rhs.kind == .null) { return }
        let (reference, culprit) = lhs.isConstant && !rhs.isConstant ? (rhs, lhs) : (lhs, rhs)
        throw mismatch(culprit, expected: "\(reference.kind.name) (\(reference.role))")
    }

    // MARK: Equality and ordering

    private func equality(_ lhs: PredicateOperand, _ rhs: PredicateOperand, options: TextComparisonOptions) throws(PredicateSyntaxError) -> PredicateStep {
        try requireSameKind(lhs, rhs, allowNull: true)
        if lhs.kind == .array || rhs.kind == .array {
            let culprit = lhs.kind == .array ? lhs : rhs
            throw mismatch(culprit, expected: "a single value (use IN to test membership in an array)")
        }
        if lhs.kind == .null || rhs.kind == .null {
            let other = lhs.kind == .null ? rhs : lhs
            let isNil = other.isNil
            return PredicateStep(evaluate: isNil, cost: 1, describe: { "" })
        }
        switch lhs.kind {
        case .string where !options.isEmpty:
            let left = lhs.folded!(options), right = rhs.folded!(options)
            // Only a constant side may be read from the placeholder; a key path reads objects.
            if rhs.isConstant, !lhs.isConstant, let constant = right(Placeholder.shared) {
                let bytes = constant.bytes
                return PredicateStep(evaluate: { left($0)?.bytes == bytes }, cost: 3, describe: { "" })
            }
            if lhs.isConstant, !rhs.isConstant, let constant = left(Placeholder.shared) {
                let bytes = constant.bytes
                return PredicateStep(evaluate: { right($0)?.bytes == bytes }, cost: 3, describe: { "" })
            }
            // nil equals only nil, as without options.
            return PredicateStep(evaluate: { object in
                switch (left(object), right(object)) {
                case (nil, nil): true
                case (let l?, let r?): l.bytes == r.bytes
                default: false
                }
            }, cost: 4, describe: { "" })
        case .string:
            return PredicateStep(evaluate: Self.equal(lhs.string!, rhs.string!, lhs, rhs), cost: 2, describe: { "" })
        case .integer where rhs.kind == .integer:
            return PredicateStep(evaluate: Self.equal(lhs.integer!, rhs.integer!, lhs, rhs), cost: 1, describe: { "" })
        case .integer, .double:
            return PredicateStep(evaluate: Self.equal(lhs.double!, rhs.double!, lhs, rhs), cost: 1, describe: { "" })
        case .bool:
            return PredicateStep(evaluate: Self.equal(lhs.bool!, rhs.bool!, lhs, rhs), cost: 1, describe: { "" })
        case .date:
            return PredicateStep(evaluate: Self.equal(lhs.date!, rhs.date!, lhs, rhs), cost: 1, describe: { "" })
        case .object:
            let left = lhs.object!, right = rhs.object!
            return PredicateStep(evaluate: { left($0) === right($0) }, cost: 1, describe: { "" })
        case .null, .array:
            requirementFailure("internal inconsistency: nil and arrays are handled above")
        }
    }

    /// `==` on optional values (nil equals only nil), with a constant side read once.
    private static func equal<T: Equatable>(
        _ left: @escaping (AnyObject) -> T?, _ right: @escaping (AnyObject) -> T?, _ lhs: PredicateOperand, _ rhs: PredicateOperand
    ) -> (AnyObject) -> Bool {
        if rhs.isConstant, let constant = right(Placeholder.shared) {
            return { left($0) == constant }
        }
        if lhs.isConstant, let constant = left(Placeholder.shared) {
            return { right($0) == constant }
        }
        return { left($0) == right($0) }
    }

    private func ordering(
        _ lhs: PredicateOperand, _ rhs: PredicateOperand, _ op: FormatPredicate.Operator, options: TextComparisonOptions
    ) throws(PredicateSyntaxError) -> PredicateStep {
        try requireSameKind(lhs, rhs, allowNull: false)
        switch lhs.kind {
        case .string where !options.isEmpty:
            let left = lhs.folded!(options), right = rhs.folded!(options)
            let test = Self.orderTest(op, [UInt8].self) { $0.lexicographicallyPrecedes($1) }
            return PredicateStep(evaluate: { object in
                guard let l = left(object), let r = right(object) else { return false }
                return test(l.bytes, r.bytes)
            }, cost: 4, describe: { "" })
        case .string:
            return PredicateStep(evaluate: Self.order(lhs.string!, rhs.string!, op, rhs), cost: 2, describe: { "" })
        case .integer where rhs.kind == .integer:
            return PredicateStep(evaluate: Self.order(lhs.integer!, rhs.integer!, op, rhs), cost: 1, describe: { "" })
        case .integer, .double:
            return PredicateStep(evaluate: Self.order(lhs.double!, rhs.double!, op, rhs), cost: 1, describe: { "" })
        case .date:
            return PredicateStep(evaluate: Self.order(lhs.date!, rhs.date!, op, rhs), cost: 1, describe: { "" })
        case .bool, .object, .null, .array:
            throw mismatch(lhs, expected: "a number, string or date: \(op.rawValue) orders values (\(lhs.role))")
        }
    }

    private static func orderTest<T>(
        _ op: FormatPredicate.Operator, _ type: T.Type, _ less: @escaping (T, T) -> Bool
    ) -> (T, T) -> Bool {
        switch op {
        case .less: return less
        case .lessOrEqual: return { !less($1, $0) }
        case .greater: return { less($1, $0) }
        default: return { !less($0, $1) }
        }
    }

    /// An ordering on values that must both be present, with a constant right side read once.
    private static func order<T: Comparable>(
        _ left: @escaping (AnyObject) -> T?, _ right: @escaping (AnyObject) -> T?, _ op: FormatPredicate.Operator,
        _ rhs: PredicateOperand
    ) -> (AnyObject) -> Bool {
        if rhs.isConstant, let constant = right(Placeholder.shared) {
            switch op {
            case .less: return { left($0).map { $0 < constant } ?? false }
            case .lessOrEqual: return { left($0).map { $0 <= constant } ?? false }
            case .greater: return { left($0).map { $0 > constant } ?? false }
            default: return { left($0).map { $0 >= constant } ?? false }
            }
        }
        // The operator itself, not `<` with its operands swapped or negated: over doubles
        // NaN orders with nothing (IEEE, as in NSPredicate and Swift), so `NaN <= x` is false
        // whether `x` is a constant or read from an object.
        let test: (T, T) -> Bool
        switch op {
        case .less: test = { $0 < $1 }
        case .lessOrEqual: test = { $0 <= $1 }
        case .greater: test = { $0 > $1 }
        default: test = { $0 >= $1 }
        }
        return { object in
            guard let l = left(object), let r = right(object) else { return false }
            return test(l, r)
        }
    }

    // MARK: BETWEEN and IN

    private func elements(of rhs: PredicateOperand, _ op: String) throws(PredicateSyntaxError) -> [PredicateValue] {
        guard case .array(let values) = rhs.constant else {
            throw mismatch(rhs, expected: "an array literal or argument after \(op) (\(rhs.role))")
        }
        return values
    }

    private func between(_ lhs: PredicateOperand, _ rhs: PredicateOperand, options: TextComparisonOptions) throws(PredicateSyntaxError) -> PredicateStep {
        let bounds = try elements(of: rhs, "BETWEEN")
        guard bounds.count == 2 else {
            throw mismatch(rhs, expected: "an array of two bounds after BETWEEN, as in {1, 5}")
        }
        let low = try ordering(lhs, PredicateOperand(constant: bounds[0], offset: rhs.offset), .greaterOrEqual, options: options)
        let high = try ordering(lhs, PredicateOperand(constant: bounds[1], offset: rhs.offset), .lessOrEqual, options: options)
        let above = low.evaluate, below = high.evaluate
        return PredicateStep(evaluate: { above($0) && below($0) }, cost: low.cost + high.cost, describe: { "" })
    }

    private func membership(_ lhs: PredicateOperand, _ rhs: PredicateOperand, options: TextComparisonOptions) throws(PredicateSyntaxError) -> PredicateStep {
        let values = try elements(of: rhs, "IN")
        let includesNil = values.contains(.null)
        var candidates: [PredicateOperand] = []
        for value in values where value != .null {
            let candidate = PredicateOperand(constant: value, offset: rhs.offset)
            try requireSameKind(lhs, candidate, allowNull: false)
            candidates.append(candidate)
        }
        let isNil = lhs.isNil
        func step<T: Hashable>(_ read: @escaping (AnyObject) -> T?, _ set: Set<T>, cost: Double) -> PredicateStep {
            PredicateStep(evaluate: { object in
                guard let value = read(object) else { return includesNil && isNil(object) }
                return set.contains(value)
            }, cost: cost, describe: { "" })
        }
        switch lhs.kind {
        case .string where !options.isEmpty:
            let folded = Set(candidates.map { FoldedText($0.constant.flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "", options: options).bytes })
            let read = lhs.folded!(options)
            return step({ read($0)?.bytes }, folded, cost: 4)
        case .string:
            return step(lhs.string!, Set(candidates.compactMap { $0.string?(Placeholder.shared) }), cost: 2)
        case .integer where candidates.allSatisfy({ $0.kind == .integer }):
            return step(lhs.integer!, Set(candidates.compactMap { $0.integer?(Placeholder.shared) }), cost: 1.5)
        case .integer, .double:
            return step(lhs.double!, Set(candidates.compactMap { $0.double?(Placeholder.shared) }), cost: 1.5)
        case .bool:
            return step(lhs.bool!, Set(candidates.compactMap { $0.bool?(Placeholder.shared) }), cost: 1.5)
        case .date:
            return step(lhs.date!, Set(candidates.compactMap { $0.date?(Placeholder.shared) }), cost: 1.5)
        case .object, .null, .array:
            throw mismatch(lhs, expected: "a value to look up in the array (\(lhs.role))")
        }
    }

    // MARK: Text

    private func requireText(_ lhs: PredicateOperand, _ rhs: PredicateOperand, _ op: FormatPredicate.Operator) throws(PredicateSyntaxError) {
        guard lhs.kind == .string else {
            throw mismatch(lhs, expected: "a string: \(op.rawValue) compares text (\(lhs.role))")
        }
        guard rhs.kind == .string else {
            throw mismatch(rhs, expected: "a string: \(op.rawValue) compares text (\(rhs.role))")
        }
    }

    private func search(
        _ lhs: PredicateOperand, _ rhs: PredicateOperand, _ op: FormatPredicate.Operator, options: TextComparisonOptions
    ) throws(PredicateSyntaxError) -> PredicateStep {
        try requireText(lhs, rhs, op)
        let haystack = lhs.folded!(options)
        let found: (FoldedText, FoldedText) -> Bool
        switch op {
        case .contains: found = { $0.contains($1) }
        case .beginsWith: found = { $0.hasPrefix($1) }
        default: found = { $0.hasSuffix($1) }
        }
        if rhs.isConstant, let needle = rhs.folded!(options)(Placeholder.shared) {
            let evaluate: (AnyObject) -> Bool
            if let maintained = lhs.maintained {
                // The hottest path: the object's own folding, when it has these options.
                let fallback = haystack
                let test: (FoldedText) -> Bool
                switch op {
                case .contains: test = { $0.contains(needle) }
                case .beginsWith: test = { $0.hasPrefix(needle) }
                default: test = { $0.hasSuffix(needle) }
                }
                evaluate = { object in
                    let folded = maintained(object)
                    if folded.options == options { return test(folded) }
                    return fallback(object).map(test) ?? false
                }
                return PredicateStep(evaluate: evaluate, cost: 4, describe: { "" })
            }
            if let (read, slot) = lhs.slotted {
                // The hot path: no copies of the folding, one closure per read.
                switch op {
                case .contains:
                    evaluate = { object in
                        guard let value = read(object) else { return false }
                        return slot(object).withFolded(value, options: options) { $0.contains(needle) }
                    }
                case .beginsWith:
                    evaluate = { object in
                        guard let value = read(object) else { return false }
                        return slot(object).withFolded(value, options: options) { $0.hasPrefix(needle) }
                    }
                default:
                    evaluate = { object in
                        guard let value = read(object) else { return false }
                        return slot(object).withFolded(value, options: options) { $0.hasSuffix(needle) }
                    }
                }
                return PredicateStep(evaluate: evaluate, cost: 4, describe: { "" })
            }
            switch op {
            case .contains: evaluate = { haystack($0)?.contains(needle) ?? false }
            case .beginsWith: evaluate = { haystack($0)?.hasPrefix(needle) ?? false }
            default: evaluate = { haystack($0)?.hasSuffix(needle) ?? false }
            }
            return PredicateStep(evaluate: evaluate, cost: 4, describe: { "" })
        }
        let needle = rhs.folded!(options)
        return PredicateStep(evaluate: { object in
            guard let text = haystack(object), let pattern = needle(object) else { return false }
            return found(text, pattern)
        }, cost: 5, describe: { "" })
    }

    private func constantPattern(_ rhs: PredicateOperand, _ op: FormatPredicate.Operator) throws(PredicateSyntaxError) -> String {
        guard case .string(let pattern) = rhs.constant else {
            throw mismatch(rhs, expected: "a constant string pattern after \(op.rawValue) (\(rhs.role))")
        }
        return pattern
    }

    private func like(_ lhs: PredicateOperand, _ rhs: PredicateOperand, options: TextComparisonOptions) throws(PredicateSyntaxError) -> PredicateStep {
        try requireText(lhs, rhs, .like)
        let pattern = WildcardPattern(try constantPattern(rhs, .like), options: options)
        let text = lhs.folded!(options)
        let simple: Bool
        if case .general = pattern.shape { simple = false } else { simple = true }
        return PredicateStep(evaluate: { text($0).map(pattern.matches) ?? false }, cost: simple ? 4 : 8, describe: { "" })
    }

    /// `MATCHES`: a constant pattern that does not compile is an error at its offset; one
    /// that came from a variable (a search field's text) matches nothing.
    private func matches(
        _ lhs: PredicateOperand, _ rhs: PredicateOperand, options: TextComparisonOptions, patternIsVariable: Bool
    ) throws(PredicateSyntaxError) -> PredicateStep {
        try requireText(lhs, rhs, .matches)
        let pattern = try constantPattern(rhs, .matches)
        let regex: PredicateRegex
        do {
            regex = try PredicateRegex(pattern: pattern, caseInsensitive: options.contains(.caseInsensitive))
        } catch {
            if patternIsVariable { return .constant(false) }
            throw failure(.invalidRegularExpression, at: rhs.offset, token: rhs.text,
                expected: "an ICU regular expression (\(error.localizedDescription))")
        }
        let read: (AnyObject) -> String?
        if options.contains(.diacriticInsensitive) {
            let folded = lhs.folded!(.diacriticInsensitive)
            read = { folded($0)?.description }
        } else {
            read = lhs.string!
        }
        // A match that exceeds the step budget counts as no match (see PredicateRegex).
        return PredicateStep(evaluate: { object in
            guard let text = read(object) else { return false }
            return regex.wholeMatch(text) ?? false
        }, cost: 20, describe: { "" })
    }
}
