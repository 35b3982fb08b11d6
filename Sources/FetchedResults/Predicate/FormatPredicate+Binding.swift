import Foundation

extension FormatPredicate {
    /// Checks the predicate against an entity and compiles it for evaluation.
    ///
    /// - Parameters:
    ///   - entity: The entity of the objects the predicate will test.
    ///   - variables: Values for the `$NAME` variables (names without the `$`).
    /// - Returns: The executable predicate.
    /// - Throws: ``PredicateSyntaxError`` with the offset of the offending key, literal or
    ///   variable: ``PredicateSyntaxError/Kind/unknownKey``,
    ///   ``PredicateSyntaxError/Kind/typeMismatch`` (a string attribute compared with a
    ///   number, an ordering on Booleans, `ANY` without a to-many key path…),
    ///   ``PredicateSyntaxError/Kind/unboundVariable``,
    ///   ``PredicateSyntaxError/Kind/invalidRegularExpression``.
    /// - Complexity: O(n) in the size of the tree, plus compiling `MATCHES` patterns.
    public func bind<Object: AnyObject>(
        to entity: PredicateEntity<Object>, variables: [String: PredicateValue] = [:]
    ) throws(PredicateSyntaxError) -> BoundFormatPredicate<Object> {
        let binder = PredicateBinder(format: format, variables: variables)
        return BoundFormatPredicate(
            predicate: self, variables: variables, entityName: entity.name, root: try binder.bind(root, entity))
    }

    /// Parses a format string and binds it in one step.
    ///
    /// - Parameters:
    ///   - format: The predicate in NSPredicate syntax.
    ///   - entity: The entity of the objects the predicate will test.
    ///   - arguments: One value per `%@`, `%K`, `%d` or `%f`, in order.
    /// - Returns: The executable predicate.
    /// - Throws: ``PredicateSyntaxError`` from parsing or binding.
    /// - Complexity: O(n) in the length of `format`, plus compiling `MATCHES` patterns.
    public static func bind<Object: AnyObject>(
        _ format: String, to entity: PredicateEntity<Object>, _ arguments: PredicateValue...
    ) throws(PredicateSyntaxError) -> BoundFormatPredicate<Object> {
        try FormatPredicate(format: format, arguments: arguments).bind(to: entity)
    }
}

/// Resolves key paths and types and compiles ``PredicateStep``s.
struct PredicateBinder {
    let format: String
    let variables: [String: PredicateValue]

    // MARK: Errors

    func failure(
        _ kind: PredicateSyntaxError.Kind, at offset: Int, token: String, expected: String
    ) -> PredicateSyntaxError {
        PredicateSyntaxError(kind, format: format, offset: offset, token: token, expected: expected)
    }

    func mismatch(_ operand: PredicateOperand, expected: String) -> PredicateSyntaxError {
        failure(.typeMismatch, at: operand.offset, token: operand.text, expected: expected)
    }

    // MARK: Nodes

    func bind(_ node: FormatPredicate.Node, _ entity: AnyPredicateEntity) throws(PredicateSyntaxError) -> PredicateStep {
        switch node {
        case .constant(let value):
            return .constant(value)
        case .not(let inner):
            let step = try bind(inner, entity)
            let evaluate = step.evaluate
            return PredicateStep(evaluate: { !evaluate($0) }, cost: step.cost, describe: {
                let text = step.describe()
                return text.contains(" AND ") || text.contains(" OR ") ? "NOT (\(text))" : "NOT \(text)"
            })
        case .and(let nodes), .or(let nodes):
            var steps: [PredicateStep] = []
            for node in nodes { steps.append(try bind(node, entity)) }
            var isConjunction = false
            if case .and = node { isConjunction = true }
            let junction = PredicateJunction(isConjunction: isConjunction, steps: steps)
            return PredicateStep(evaluate: { junction.evaluate($0) }, cost: junction.cost, describe: { junction.describe() })
        case .comparison(let comparison):
            return try bind(comparison, entity)
        }
    }

    private func bind(_ comparison: FormatPredicate.Comparison, _ entity: AnyPredicateEntity) throws(PredicateSyntaxError) -> PredicateStep {
        let lhsExpression = try substitute(comparison.lhs)
        let rhsExpression = try substitute(comparison.rhs)
        if case .keyPath(let components, let offset) = rhsExpression,
            try resolvesThroughToMany(components, offset, entity)
        {
            throw failure(.unsupported, at: offset, token: components.joined(separator: "."),
                expected: "a to-many key path only on the left of a comparison")
        }
        // A to-many key path on the left: the comparison applies to each related object.
        if case .keyPath(let components, let offset) = lhsExpression,
            let split = try splitAtToMany(components, offset, entity)
        {
            guard let quantifier = comparison.quantifier else {
                throw failure(.typeMismatch, at: offset, token: components.joined(separator: "."),
                    expected: "ANY, ALL or NONE before a comparison over the to-many relationship \(split.relationship)")
            }
            // The right side belongs to the evaluated object, as in NSPredicate: it is
            // resolved against this entity and read from the object being tested, which the
            // context holds while the related objects are visited.
            let context = PredicateContext()
            var rhs = try operand(rhsExpression, entity)
            if !rhs.isConstant { rhs = rhs.reading(from: context) }
            let written = FormatPredicate.Comparison(
                quantifier: quantifier, lhsExpression, comparison.op, options: comparison.options, rhsExpression
            ).description
            let step = try quantified(
                comparison, quantifier, split, path: components, offset: offset, start: offset, rhs: rhs, written: written)
            guard !rhs.isConstant else { return step }
            let test = step.evaluate
            return PredicateStep(evaluate: { object in
                let saved = context.object
                context.object = object
                defer { context.object = saved }
                return test(object)
            }, cost: step.cost, describe: step.describe)
        }
        if let quantifier = comparison.quantifier {
            throw failure(.typeMismatch, at: comparison.lhs.offset, token: comparison.lhs.description,
                expected: "a key path through a to-many relationship after \(quantifier.rawValue)")
        }
        return try compare(comparison, lhsExpression: lhsExpression, rhsExpression: rhsExpression, entity)
    }

    /// `ANY`/`ALL`/`NONE` over the objects a to-many key path reaches, through every
    /// to-many hop in it (flattened, as NSPredicate does: `ANY tags.items.name == 'x'` is
    /// true when some item of some tag is named x).
    private func quantified(
        _ comparison: FormatPredicate.Comparison, _ quantifier: FormatPredicate.Quantifier, _ split: ToManySplit,
        path: [String], offset: Int, start: Int, rhs: PredicateOperand, written: String
    ) throws(PredicateSyntaxError) -> PredicateStep {
        let target = split.target
        let element: PredicateStep
        // `start` is the offset of the split's key path, `offset` the whole path's.
        let restOffset = start + split.prefix.utf8.count + 1
        if let inner = try splitAtToMany(split.rest, restOffset, target, path: path, pathOffset: offset) {
            // Another to-many hop: ANY and NONE look for one match among all the objects
            // reached, ALL needs every one of them to match.
            element = try quantified(comparison, quantifier == .all ? .all : .any, inner, path: path, offset: offset,
                start: restOffset, rhs: rhs, written: written)
        } else {
            let lhs = try operand(.keyPath(split.rest, offset: restOffset), target)
            element = try compare(comparison, lhs, rhs, written: written)
        }
        let test = element.evaluate
        let owner = split.owner
        let contains = split.toMany.contains
        let evaluate: (AnyObject) -> Bool
        switch quantifier {
        case .any:
            evaluate = { object in owner(object).map { contains($0, test) } ?? false }
        case .all:
            evaluate = { object in owner(object).map { !contains($0) { !test($0) } } ?? true }
        case .notAny:
            evaluate = { object in owner(object).map { !contains($0, test) } ?? true }
        }
        return PredicateStep(evaluate: evaluate, cost: 10 + 4 * element.cost, describe: { written })
    }

    // MARK: Variables

    private func substitute(_ expression: FormatPredicate.Expression) throws(PredicateSyntaxError) -> FormatPredicate.Expression {
        switch expression {
        case .variable(let name, let offset):
            guard let value = variables[name] else {
                throw failure(.unboundVariable, at: offset, token: "$\(name)", expected: "a value for $\(name)")
            }
            return .value(value, offset: offset)
        case .array(let elements, let offset):
            var values: [PredicateValue] = []
            for element in elements {
                guard case .value(let value, _) = try substitute(element) else {
                    throw failure(.unsupported, at: element.offset, token: element.description,
                        expected: "constants and variables in an array")
                }
                values.append(value)
            }
            return .value(.array(values), offset: offset)
        default:
            return expression
        }
    }

    // MARK: Key paths

    /// A key path split at its to-many relationship.
    struct ToManySplit {
        /// The to-one hops before the to-many relationship.
        var owner: (AnyObject) -> AnyObject?
        var toMany: ErasedToMany
        /// The entity of the related objects.
        var target: AnyPredicateEntity
        var relationship: String
        var prefix: String
        /// The key path after the to-many relationship, relative to its target.
        var rest: [String]
    }

    private func resolvesThroughToMany(
        _ components: [String], _ offset: Int, _ entity: AnyPredicateEntity
    ) throws(PredicateSyntaxError) -> Bool {
        try splitAtToMany(components, offset, entity) != nil
    }

    /// Finds a to-many relationship inside `components` (not one followed by `@count`).
    ///
    /// `path` and `pathOffset` are the whole key path and its offset when `components` is
    /// its tail after an earlier to-many hop (for error messages).
    private func splitAtToMany(
        _ components: [String], _ offset: Int, _ entity: AnyPredicateEntity, path: [String]? = nil, pathOffset: Int? = nil
    ) throws(PredicateSyntaxError) -> ToManySplit? {
        var current = entity
        var hops: [(AnyObject) -> AnyObject?] = []
        for (index, name) in components.enumerated() {
            guard let property = current.properties[name] else {
                if name == "@count" { return nil }
                throw unknownKey(components, index, offset, current)
            }
            switch property {
            case .attribute:
                return nil
            case .toOne(let target, let read):
                hops.append(read)
                current = current.entity(target)
            case .toMany(let toMany):
                if index + 1 < components.count, components[index + 1] == "@count" { return nil }
                guard index + 1 < components.count else {
                    throw failure(.typeMismatch, at: pathOffset ?? offset, token: (path ?? components).joined(separator: "."),
                        expected: "a key path to an attribute (\(name) is a to-many relationship; use \(name).@count)")
                }
                return ToManySplit(
                    owner: Self.compose(hops), toMany: toMany, target: current.entity(toMany.target), relationship: name,
                    prefix: components[...index].joined(separator: "."), rest: Array(components[(index + 1)...]))
            }
        }
        return nil
    }

    private func unknownKey(
        _ components: [String], _ index: Int, _ offset: Int, _ entity: AnyPredicateEntity
    ) -> PredicateSyntaxError {
        let position = offset + components[..<index].reduce(0) { $0 + $1.utf8.count + 1 }
        if let type = entity.unsupportedAttributeType(named: components[index]) {
            return failure(.unsupported, at: position, token: components[index],
                expected: "an attribute of type String, Int, Double, Bool or Date (\(entity.name).\(components[index]) is \(type))")
        }
        let names = entity.propertyNames
        let known = names.isEmpty ? "none" : names.joined(separator: ", ")
        return failure(.unknownKey, at: position, token: components[index],
            expected: "a property of \(entity.name) (\(known))")
    }

    /// Composes to-one hops into one closure; `nil` hops is the object itself.
    static func compose(_ hops: [(AnyObject) -> AnyObject?]) -> (AnyObject) -> AnyObject? {
        switch hops.count {
        case 0: return { $0 }
        case 1: return hops[0]
        case 2:
            let first = hops[0], second = hops[1]
            return { first($0).flatMap(second) }
        default:
            return { object in
                var current: AnyObject? = object
                for hop in hops {
                    guard let next = current else { return nil }
                    current = hop(next)
                }
                return current
            }
        }
    }

    /// Resolves a key path without to-many relationships (other than before `@count`).
    private func resolve(
        _ components: [String], _ offset: Int, _ entity: AnyPredicateEntity
    ) throws(PredicateSyntaxError) -> PredicateOperand {
        var current = entity
        var hops: [(AnyObject) -> AnyObject?] = []
        let text = components.joined(separator: ".")
        for (index, name) in components.enumerated() {
            let isLast = index == components.count - 1
            guard let property = current.properties[name] else { throw unknownKey(components, index, offset, current) }
            switch property {
            case .attribute(let attribute):
                guard isLast else {
                    throw failure(.typeMismatch, at: offset, token: text,
                        expected: "a relationship before .\(components[index + 1]) (\(name) is an attribute)")
                }
                return PredicateOperand(attribute: attribute, owner: hops.isEmpty ? nil : Self.compose(hops),
                    hops: hops.count, offset: offset, text: text)
            case .toOne(let target, let read):
                hops.append(read)
                if isLast {
                    return PredicateOperand(object: Self.compose(hops), hops: hops.count, offset: offset, text: text)
                }
                current = current.entity(target)
            case .toMany(let toMany):
                guard index + 2 == components.count, components[index + 1] == "@count" else {
                    // Callers split to-many key paths first; stay an error, never a trap.
                    throw failure(.typeMismatch, at: offset, token: text,
                        expected: "ANY, ALL or NONE before a comparison over the to-many relationship \(name)")
                }
                let owner = Self.compose(hops)
                let count = toMany.count
                return PredicateOperand(
                    count: hops.isEmpty ? count : { owner($0).map(count) }, hops: hops.count + 1, offset: offset, text: text)
            }
        }
        requirementFailure("internal inconsistency: an empty key path")
    }

    func operand(_ expression: FormatPredicate.Expression, _ entity: AnyPredicateEntity) throws(PredicateSyntaxError) -> PredicateOperand {
        switch expression {
        case .keyPath(let components, let offset):
            if components.first == "@count" || (components.count > 1 && components.dropLast().contains("@count")) {
                throw failure(.typeMismatch, at: offset, token: components.joined(separator: "."),
                    expected: "@count only after a to-many relationship, at the end of a key path")
            }
            return try resolve(components, offset, entity)
        case .value(let value, let offset):
            return PredicateOperand(constant: value, offset: offset)
        case .variable, .array:
            requirementFailure("internal inconsistency: variables and arrays are substituted before binding")
        }
    }
}
