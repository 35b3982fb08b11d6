/// Splits a format string into tokens, with UTF-8 offsets.
struct PredicateLexer {
    /// One token.
    struct Token: Equatable {
        enum Kind: Equatable {
            /// A bare word: a key or a keyword (the parser decides).
            case word(String)
            /// `#word`: always a key.
            case escapedWord(String)
            /// `@word`, a collection operator.
            case atWord(String)
            case string(String)
            case integer(Int)
            /// 9223372036854775808: valid only after `-`, as `Int.min`.
            case minimumIntegerMagnitude
            case double(Double)
            /// `$NAME`.
            case variable(String)
            /// `%@`, `%K`, `%d`, `%f` and their length-modified forms, as written.
            case specifier(String)
            /// Punctuation and symbolic operators, as written.
            case symbol(String)
            case end
        }

        var kind: Kind
        /// UTF-8 offset of the first byte.
        var offset: Int
        /// UTF-8 length.
        var length: Int
    }

    /// Keywords that cannot be keys without a `#`.
    static let reserved: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES",
        "ANY", "ALL", "NONE", "SOME", "TRUEPREDICATE", "FALSEPREDICATE", "NIL", "NULL", "TRUE", "FALSE",
        "YES", "NO",
    ]

    /// Whether `word` is a keyword in any case.
    static func isReserved(_ word: String) -> Bool {
        reserved.contains(word.uppercased())
    }

    /// Whether `component` is a key the grammar can spell: a word (a keyword is written with
    /// `#`) or `@count`.
    static func isKey(_ component: String) -> Bool {
        if component == "@count" { return true }
        guard let first = component.utf8.first, isWordStart(first) else { return false }
        return component.utf8.allSatisfy(isWordByte)
    }

    let format: String
    let bytes: [UInt8]
    var position = 0

    init(format: String) {
        self.format = format
        self.bytes = Array(format.utf8)
    }

    /// The source text of `token`.
    func text(of token: Token) -> String {
        let end = min(bytes.count, token.offset + token.length)
        return String(decoding: bytes[token.offset..<end], as: UTF8.self)
    }

    private func error(_ message: String, at offset: Int, length: Int) -> PredicateSyntaxError {
        let end = min(bytes.count, offset + max(length, 1))
        let token = offset < bytes.count ? String(decoding: bytes[offset..<end], as: UTF8.self) : ""
        return PredicateSyntaxError(.syntax, format: format, offset: offset, token: token, expected: message)
    }

    static func isWordStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        isWordStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// The next token.
    mutating func next() throws(PredicateSyntaxError) -> Token {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        let start = position
        guard position < bytes.count else { return Token(kind: .end, offset: start, length: 0) }
        let byte = bytes[position]
        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, offset: start, length: position - start) }
        switch byte {
        case 0x22, 0x27: return token(.string(try string(quote: byte)))
        case 0x23, 0x24, 0x40:  // # $ @
            position += 1
            guard position < bytes.count, Self.isWordStart(bytes[position]) else {
                throw error("a name after \(Character(Unicode.Scalar(byte)))", at: start, length: 1)
            }
            let name = word()
            return token(byte == 0x23 ? .escapedWord(name) : byte == 0x24 ? .variable(name) : .atWord(name))
        case 0x25:  // %
            return token(.specifier(try specifier()))
        default:
            if Self.isWordStart(byte) { return token(.word(word())) }
            if Self.isDigit(byte) || (byte == 0x2E && position + 1 < bytes.count && Self.isDigit(bytes[position + 1])) {
                return token(try number())
            }
            return token(.symbol(try symbol()))
        }
    }

    private mutating func word() -> String {
        let start = position
        while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// A string literal, decoded in one pass: unescaped runs are copied as bytes, escapes
    /// append their scalar's UTF-8, and the result is decoded once at the end.
    ///
    /// - Complexity: O(n) in the literal's length.
    private mutating func string(quote: UInt8) throws(PredicateSyntaxError) -> String {
        let start = position
        position += 1
        var decoded: [UInt8] = []
        var run = position
        func flush(_ end: Int) {
            if run < end { decoded.append(contentsOf: bytes[run..<end]) }
        }
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { decoded.append($0) }
        }
        while position < bytes.count {
            let byte = bytes[position]
            if byte == quote {
                flush(position)
                position += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte == 0x5C {  // backslash
                flush(position)
                let escape = position
                position += 1
                guard position < bytes.count else { break }
                switch bytes[position] {
                case 0x6E: append("\n")
                case 0x74: append("\t")
                case 0x72: append("\r")
                case 0x30: append("\0")
                case 0x75:  // \uXXXX or \u{X…}
                    position += 1
                    append(try unicodeEscape(from: escape))
                    run = position
                    continue
                default:
                    // \" \' \\ and any other character stand for themselves; keep a
                    // multi-byte character whole.
                    var end = position + 1
                    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                    decoded.append(contentsOf: bytes[position..<end])
                    position = end
                    run = position
                    continue
                }
                position += 1
                run = position
                continue
            }
            position += 1
        }
        throw error("a closing \(Character(Unicode.Scalar(quote)))", at: start, length: position - start)
    }

    /// `\uXXXX` or `\u{X…}` after `\u`, read as bytes (no intermediate strings).
    private mutating func unicodeEscape(from escape: Int) throws(PredicateSyntaxError) -> Unicode.Scalar {
        var value: UInt32 = 0
        var digits = 0
        var valid = true
        func digit(_ byte: UInt8) -> UInt32? {
            switch byte {
            case 0x30...0x39: UInt32(byte - 0x30)
            case 0x41...0x46: UInt32(byte - 0x41 + 10)
            case 0x61...0x66: UInt32(byte - 0x61 + 10)
            default: nil
            }
        }
        func accumulate(_ byte: UInt8) {
            if let digit = digit(byte) { value = value << 4 | digit } else { valid = false }
            digits += 1
        }
        if position < bytes.count, bytes[position] == 0x7B {  // {
            position += 1
            while position < bytes.count, bytes[position] != 0x7D, digits < 8 {
                accumulate(bytes[position])
                position += 1
            }
            guard position < bytes.count, bytes[position] == 0x7D else {
                throw error("\\u{…} with 1 to 8 hexadecimal digits", at: escape, length: position - escape)
            }
            position += 1
        } else {
            while position < bytes.count, digits < 4 {
                accumulate(bytes[position])
                position += 1
            }
        }
        guard digits > 0, valid, let scalar = Unicode.Scalar(value) else {
            throw error("a Unicode scalar escape (\\uXXXX or \\u{X…})", at: escape, length: position - escape)
        }
        return scalar
    }

    private mutating func number() throws(PredicateSyntaxError) -> Token.Kind {
        let start = position
        if bytes[position] == 0x30, position + 1 < bytes.count, bytes[position + 1] | 0x20 == 0x78 {  // 0x
            position += 2
            let digitsStart = position
            while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
            let digits = String(decoding: bytes[digitsStart..<position], as: UTF8.self)
            guard let value = Int(digits, radix: 16) else {
                throw error("a hexadecimal integer that fits in 64 bits", at: start, length: position - start)
            }
            return .integer(value)
        }
        var isDouble = false
        while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        if position < bytes.count, bytes[position] == 0x2E, position + 1 < bytes.count, Self.isDigit(bytes[position + 1]) {
            isDouble = true
            position += 1
            while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == 0x65 {  // e
            var exponent = position + 1
            if exponent < bytes.count, bytes[exponent] == 0x2B || bytes[exponent] == 0x2D { exponent += 1 }
            if exponent < bytes.count, Self.isDigit(bytes[exponent]) {
                isDouble = true
                position = exponent
                while position < bytes.count, Self.isDigit(bytes[position]) { position += 1 }
            }
        }
        if position < bytes.count, Self.isWordStart(bytes[position]) {
            throw error("a number", at: start, length: position - start + 1)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isDouble {
            guard let value = Double(text), value.isFinite else {
                throw error("a finite number", at: start, length: position - start)
            }
            return .double(value)
        }
        guard let value = Int(text) else {
            if text.drop(while: { $0 == "0" }) == "9223372036854775808" { return .minimumIntegerMagnitude }
            throw error("an integer that fits in 64 bits", at: start, length: position - start)
        }
        return .integer(value)
    }

    private mutating func specifier() throws(PredicateSyntaxError) -> String {
        let start = position
        position += 1
        // Longest forms first, so "%ld" is not read as "%l" followed by "d".
        for form in ["lld", "lli", "ld", "li", "lf", "@", "K", "d", "i", "f", "g"] {
            let formBytes = Array(form.utf8)
            if position + formBytes.count <= bytes.count, bytes[position..<(position + formBytes.count)].elementsEqual(formBytes) {
                position += formBytes.count
                return "%" + form
            }
        }
        throw error("a format specifier (%@, %K, %d or %f)", at: start, length: 2)
    }

    private mutating func symbol() throws(PredicateSyntaxError) -> String {
        let twoByte = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
        if position + 1 < bytes.count {
            let pair = String(decoding: bytes[position..<(position + 2)], as: UTF8.self)
            if twoByte.contains(pair) {
                position += 2
                return pair
            }
        }
        let byte = bytes[position]
        if "()[]{},.=<>!-".utf8.contains(byte) {
            position += 1
            return String(Character(Unicode.Scalar(byte)))
        }
        throw error("an operator, key, literal or parenthesis", at: position, length: 1)
    }
}
