import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

@Suite("RawByteWriter and snapshot columns: the bytes of ByteWriter and writeColumn")
struct RawByteWriterTests {
    @Test("Every encoding writes the bytes ByteWriter writes, across growth and repeats")
    func sameBytesAsByteWriter() {
        var rng = SeededGenerator(seed: 0xB17E5)
        var raw = RawByteWriter(capacity: 8)
        var plain = ByteWriter()
        let texts = ["", "Item", "aé€🍎", String(repeating: "long text ", count: 20)]
        for step in 0..<5_000 {
            let value = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
            switch step % 8 {
            case 7:
                // A run of one byte, as an objects record's serials without gaps are written.
                let run = Int(value % 300)
                raw.byte(UInt8(truncatingIfNeeded: value >> 9), repeated: run)
                plain.bytes.append(contentsOf: repeatElement(UInt8(truncatingIfNeeded: value >> 9), count: run))
            case 0:
                raw.varint(value)
                plain.varint(value)
            case 1:
                raw.signed(Int64(bitPattern: value) >> 3)
                plain.signed(Int64(bitPattern: value) >> 3)
            case 2:
                raw.fixed64(value)
                plain.fixed64(value)
            case 3:
                raw.byte(UInt8(truncatingIfNeeded: value))
                plain.byte(UInt8(truncatingIfNeeded: value))
            case 4:
                let text = texts[Int(value % UInt64(texts.count))]
                raw.string(text)
                plain.string(text)
            case 5:
                let bytes = (0..<Int(value % 40)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
                bytes.withUnsafeBytes { raw.blob($0) }
                plain.blob(bytes)
            default:
                // The last few bytes again, as a repeated value is written.
                let length = min(raw.count, Int(value % 24))
                raw.repeatBytes(raw.count - length..<raw.count)
                plain.bytes.append(contentsOf: plain.bytes.suffix(length))
            }
        }
        #expect(Array(raw.bytes) == plain.bytes)
    }

    @Test("A snapshot column of every attribute type writes the bytes of writeColumn, repeated values included")
    func snapshotColumnsMatchColumns() throws {
        let graph = ObjectGraph()
        var workload = StoreWorkload(seed: 0xC011)
        var products: [Product] = []
        for index in 0..<300 {
            // Runs of equal values (a shared string, blob or URL) beside distinct ones.
            if index % 5 != 0, let last = products.last {
                let product = graph.insert(Product())
                product.name = last.name
                product.blob = last.blob
                product.link = last.link
                product.note = last.note
                product.size = last.size
                product.count = index
                products.append(product)
            } else {
                products.append(workload.randomProduct(graph))
            }
        }
        products[7].name = String(repeating: "a long name, stored out of line ", count: 4)
        products[8].name = products[7].name
        let code = try #require(storeSchema.entityIndex[Product.entity.name])
        let properties = storeSchema.entities[code].properties.filter { $0.kind != nil }
        #expect(properties.count >= 17)
        for property in properties {
            let codec = AttributeCodec(entity: Product.entity, index: property.index, kind: try #require(property.kind))
            var plain = ByteWriter()
            try codec.writeColumn(products, &plain)
            var raw = RawByteWriter(capacity: 16)
            try Snapshot.ObjectChunk.of(products) { try codec.writeSnapshotColumn($0, &raw) }
            #expect(Array(raw.bytes) == plain.bytes, "\(property.name)")
        }
    }
}
