import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Every attribute of a product as text (bit patterns for floating-point numbers, so NaN
/// and -0 compare exactly).
private func attributes(_ p: Product) -> String {
    "\(p.name)|\(p.count)|\(p.small)|\(p.big)|\(p.price.bitPattern)|\(p.weight.bitPattern)|\(p.flag)|"
        + "\(p.added.timeIntervalSinceReferenceDate.bitPattern)|\(p.identifier)|\(Array(p.blob))|\(p.link)|\(p.cost)|"
        + "\(p.note ?? "nil")|\(p.rating.map(String.init) ?? "nil")|\(p.kind)|\(p.code)|\(p.size)"
}

/// The attribute properties of `Product` in the test schema.
private func productAttributes() throws -> [StoreSchema.Property] {
    let code = try #require(storeSchema.entityIndex[Product.entity.name])
    return storeSchema.entities[code].properties.filter { $0.kind != nil }
}

@Suite("AttributeCodec: values without Any, in the bytes of the PlainValue path")
struct AttributeCodecTests {
    /// Writes every attribute of `product` with its codec and with the `PlainValue` path,
    /// expects the same bytes, and reads them back into `copy`.
    private func check(_ product: Product, into copy: Product, graph: ObjectGraph, _ context: String) throws {
        for property in try productAttributes() {
            let kind = try #require(property.kind)
            let codec = AttributeCodec(entity: Product.entity, index: property.index, kind: kind)
            var direct = ByteWriter()
            try codec.write(product, &direct)
            var plain = ByteWriter()
            kind.write(try kind.plain(product.storedValue(at: property.index)), to: &plain)
            // JSONEncoder's key order is not fixed from one call to the next: JSON values are
            // compared once decoded, below.
            if kind != .json { #expect(direct.bytes == plain.bytes, "\(context): \(property.name) (\(kind))") }
            var reader = ByteReader(direct.bytes[...])
            #expect(try codec.read(&reader, copy, graph), "\(context): \(property.name)")
            #expect(reader.isAtEnd, "\(context): \(property.name)")
        }
        #expect(attributes(copy) == attributes(product), "\(context)")
    }

    @Test("Random values of every kind: the same bytes as the PlainValue path, read back exactly", arguments: testSeeds(count: 4))
    func randomValues(seed: UInt64) throws {
        var workload = StoreWorkload(seed: seed)
        let graph = ObjectGraph()
        for round in 0..<40 {
            let product = workload.randomProduct(graph)
            try check(product, into: graph.insert(Product()), graph: graph, "seed \(seed), round \(round)")
        }
    }

    @Test("Extreme values: integer bounds, NaN, -0, infinities, empty and non-ASCII text, nil and non-nil optionals")
    func extremeValues() throws {
        let graph = ObjectGraph()
        for (round, negative) in [true, false].enumerated() {
            let product = graph.insert(Product())
            product.name = negative ? "" : "é🍎\u{0}x"
            product.count = negative ? .min : .max
            product.small = negative ? .min : .max
            product.big = negative ? 0 : .max
            product.price = negative ? -0.0 : .nan
            product.weight = negative ? -.infinity : .greatestFiniteMagnitude
            product.flag = negative
            product.added = negative ? .distantPast : .distantFuture
            product.blob = negative ? Data() : Data(repeating: 0xFF, count: 300)
            product.note = negative ? nil : ""
            product.rating = negative ? .min : nil
            try check(product, into: graph.insert(Product()), graph: graph, "round \(round)")
        }
    }

    @Test("Bytes that make no value of the type are refused, and a bad optional flag is damage")
    func badValues() throws {
        let graph = ObjectGraph()
        let product = graph.insert(Product())
        let properties = try productAttributes()
        func codec(_ name: String) throws -> AttributeCodec {
            let property = try #require(properties.first { $0.name == name })
            return AttributeCodec(entity: Product.entity, index: property.index, kind: try #require(property.kind))
        }
        // An Int8 out of range.
        var writer = ByteWriter()
        writer.signed(1_000)
        var reader = ByteReader(writer.bytes[...])
        #expect(try codec("small").read(&reader, product, graph) == false)
        // A UUID of 15 bytes.
        writer = ByteWriter()
        writer.blob([UInt8](repeating: 1, count: 15))
        reader = ByteReader(writer.bytes[...])
        #expect(try codec("identifier").read(&reader, product, graph) == false)
        // An optional whose flag is 2.
        reader = ByteReader([2, 0][...])
        #expect(throws: ByteReaderError.self) { try codec("note").read(&reader, product, graph) }
        // A string that is not UTF-8.
        reader = ByteReader([2, 0xC3, 0x28][...])
        #expect(throws: ByteReaderError.self) { try codec("name").read(&reader, product, graph) }
        // Invalid sequences that a repairing decoder replaces by as many bytes as they hold
        // (a truncated four-byte sequence, an encoded surrogate), a lone continuation byte,
        // an overlong encoding, and a valid replacement character beside an invalid byte.
        for bytes: [UInt8] in [[0xF0, 0x90, 0x80], [0x61, 0xF0, 0x90, 0x80, 0x62], [0xED, 0xA0, 0x80], [0x80], [0xC0, 0xAF], [0xEF, 0xBF, 0xBD, 0xFF]] {
            reader = ByteReader(([UInt8(bytes.count)] + bytes)[...])
            #expect(throws: ByteReaderError.self, "\(bytes)") { try codec("name").read(&reader, product, graph) }
        }
        // Valid text of every width round-trips.
        writer = ByteWriter()
        writer.string("aé€🍎\u{FFFD}")
        reader = ByteReader(writer.bytes[...])
        #expect(try reader.string() == "aé€🍎\u{FFFD}")
        #expect(attributes(product) == attributes(Product()))
    }

    @Test("A column of strings round-trips, repeated values included, and bytes that repeat nothing valid are refused")
    func stringColumns() throws {
        let graph = ObjectGraph()
        let property = try #require(try productAttributes().first { $0.name == "name" })
        let codec = AttributeCodec(entity: Product.entity, index: property.index, kind: try #require(property.kind))
        let names = ["Item", "Item", "Itex", "", "", "🍎", "🍎", "Item"]
        let products = names.map { name in
            let product = graph.insert(Product())
            product.name = name
            return product
        }
        var writer = ByteWriter()
        try codec.writeColumn(products, &writer)
        let copies = names.map { _ in graph.insert(Product()) }
        var reader = ByteReader(writer.bytes[...])
        #expect(try codec.readColumn(&reader, copies, graph))
        #expect(reader.isAtEnd)
        #expect(copies.map(\.name) == names)
        // An invalid string after a valid one is not taken for a repeat.
        writer = ByteWriter()
        writer.string("a")
        writer.blob([0xFF])
        reader = ByteReader(writer.bytes[...])
        #expect(throws: ByteReaderError.self) { try codec.readColumn(&reader, Array(copies.prefix(2)), graph) }
    }
}
