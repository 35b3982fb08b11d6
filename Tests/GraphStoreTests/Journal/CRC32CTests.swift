import Testing

@testable import GraphStore

@Suite("CRC32C")
struct CRC32CTests {
    @Test("known vectors")
    func knownVectors() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }
}
