import Foundation

/// One side of a comparison, resolved: its kind and typed read closures.
///
/// Key paths read through the closures their entity declared (composed with the to-one
/// hops); constants read as constant closures, and keep their value for folding once.
struct PredicateOperand {
    enum Kind: Equatable {
        case null, string, integer, double, bool, date, object, array

        var name: String {
            switch self {
            case .null: "nil"
            case .string: "a string"
            case .integer: "an integer"
            case .double: "a number"
            case .bool: "a Boolean"
            case .date: "a date"
            case .object: "a related object"
            case .array: "an array"
            }
        }

        var isNumeric: Bool { self == .integer || self == .double }
    }

    var kind: Kind
    var offset: Int
    /// The operand as written.
    var text: String
    /// The value, for constants.
    var constant: PredicateValue?
    /// To-one hops (and to-many counts) a key path takes; 0 for constants.
    var hops = 0
    /// What the operand is, for error messages ("name is a string attribute").
    var role: String

    var isNil: (AnyObject) -> Bool = { _ in true }
    var string: ((AnyObject) -> String?)?
    var folded: ((TextComparisonOptions) -> (AnyObject) -> FoldedText?)?
    var integer: ((AnyObject) -> Int?)?
    var double: ((AnyObject) -> Double?)?
    var bool: ((AnyObject) -> Bool?)?
    var date: ((AnyObject) -> Date?)?
    var object: ((AnyObject) -> AnyObject?)?
    /// For a string attribute on the object itself with a ``FoldedTextSlot``: its read and
    /// slot closures, for the fastest search path.
    var slotted: (read: (AnyObject) -> String?, slot: (AnyObject) -> FoldedTextSlot)?
    /// For a string attribute on the object itself that keeps its own folding: its read.
    var maintained: ((AnyObject) -> FoldedText)?

    var isConstant: Bool { constant != nil }

    /// An attribute reached through `owner` (`nil`: on the object itself).
    init(attribute: ErasedAttribute, owner: ((AnyObject) -> AnyObject?)?, hops: Int, offset: Int, text: String) {
        self.offset = offset
        self.text = text
        self.hops = hops
        self.role = "\(text) is \(attribute.isOptional ? "an optional" : "a") \(attribute.kind.rawValue) attribute"
        func lift<T>(_ read: @escaping (AnyObject) -> T?) -> (AnyObject) -> T? {
            guard let owner else { return read }
            return { owner($0).flatMap(read) }
        }
        switch attribute.read {
        case .string(let read):
            kind = .string
            let string = lift(read)
            self.string = string
            isNil = { string($0) == nil }
            let caches = attribute.caches!
            if let foldedRead = attribute.foldedRead {
                folded = { options in
                    { object in
                        guard let target = owner.map({ $0(object) }) ?? object, let value = read(target) else { return nil }
                        return foldedRead(target, value, options)
                    }
                }
                break
            }
            if let maintained = attribute.maintained {
                if owner == nil { self.maintained = maintained }
                folded = { options in
                    let cache = caches.cache(for: options)
                    return { object in
                        guard let target = owner.map({ $0(object) }) ?? object else { return nil }
                        let folded = maintained(target)
                        if folded.options == options { return folded }
                        return read(target).map { cache.folded($0, for: target) }
                    }
                }
                break
            }
            if let slot = attribute.slot {
                if owner == nil { slotted = (read, slot) }
                folded = { options in
                    guard let owner else {
                        return { object in read(object).map { slot(object).folded($0, options: options) } }
                    }
                    return { object in
                        guard let target = owner(object), let value = read(target) else { return nil }
                        return slot(target).folded(value, options: options)
                    }
                }
                break
            }
            folded = { options in
                let cache = caches.cache(for: options)
                guard let owner else {
                    return { object in read(object).map { cache.folded($0, for: object) } }
                }
                return { object in
                    guard let target = owner(object), let value = read(target) else { return nil }
                    return cache.folded(value, for: target)
                }
            }
        case .integer(let read):
            kind = .integer
            let integer = lift(read)
            self.integer = integer
            double = { integer($0).map(Double.init) }
            isNil = { integer($0) == nil }
        case .double(let read):
            kind = .double
            let double = lift(read)
            self.double = double
            isNil = { double($0) == nil }
        case .bool(let read):
            kind = .bool
            let bool = lift(read)
            self.bool = bool
            isNil = { bool($0) == nil }
        case .date(let read):
            kind = .date
            let date = lift(read)
            self.date = date
            isNil = { date($0) == nil }
        }
    }

    /// A to-one relationship's target, for `== nil` and identity comparisons.
    init(object: @escaping (AnyObject) -> AnyObject?, hops: Int, offset: Int, text: String) {
        kind = .object
        self.offset = offset
        self.text = text
        self.hops = hops
        role = "\(text) is a to-one relationship"
        self.object = object
        isNil = { object($0) == nil }
    }

    /// `relationship.@count`.
    init(count: @escaping (AnyObject) -> Int?, hops: Int, offset: Int, text: String) {
        kind = .integer
        self.offset = offset
        self.text = text
        self.hops = hops
        role = "\(text) is an integer"
        integer = count
        double = { count($0).map(Double.init) }
        isNil = { count($0) == nil }
    }

    /// A constant.
    init(constant value: PredicateValue, offset: Int) {
        self.offset = offset
        self.text = value.description
        self.constant = value
        role = "\(value) is a constant"
        isNil = { _ in value == .null }
        switch value {
        case .null:
            kind = .null
        case .bool(let flag):
            kind = .bool
            bool = { _ in flag }
        case .integer(let number):
            kind = .integer
            integer = { _ in number }
            double = { _ in Double(number) }
        case .double(let number):
            kind = .double
            double = { _ in number }
        case .string(let text):
            kind = .string
            string = { _ in text }
            folded = { options in
                let folded = FoldedText(text, options: options)
                return { _ in folded }
            }
        case .date(let moment):
            kind = .date
            date = { _ in moment }
        case .array:
            kind = .array
        }
    }
}

@available(*, unavailable)
extension PredicateOperand: Sendable {}

/// The object a quantified comparison is evaluated for, while its related objects are
/// visited: right-hand key paths read from it, not from each related object.
final class PredicateContext {
    var object: AnyObject?

    /// The object being evaluated (set for the duration of the quantified comparison).
    var current: AnyObject {
        guard let object else { requirementFailure("internal inconsistency: a quantified comparison read its object outside its evaluation") }
        return object
    }
}

@available(*, unavailable)
extension PredicateContext: Sendable {}

extension PredicateOperand {
    /// The same operand reading from the context's current object instead of the object it
    /// is given (a related object inside `ANY`/`ALL`/`NONE`).
    func reading(from context: PredicateContext) -> PredicateOperand {
        func rebase<T>(_ read: ((AnyObject) -> T)?) -> ((AnyObject) -> T)? {
            read.map { read in { _ in read(context.current) } }
        }
        var result = self
        let isNil = self.isNil
        result.isNil = { _ in isNil(context.current) }
        result.string = rebase(string)
        result.integer = rebase(integer)
        result.double = rebase(double)
        result.bool = rebase(bool)
        result.date = rebase(date)
        result.object = rebase(object)
        result.folded = folded.map { folded in
            { options in
                let read = folded(options)
                return { _ in read(context.current) }
            }
        }
        result.slotted = nil
        result.maintained = nil
        return result
    }
}
