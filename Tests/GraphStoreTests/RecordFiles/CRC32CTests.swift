import Checksum
import Testing
import TestSupport

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

    @Test("known vectors, each method")
    func knownVectorsOfEachMethod() {
        let digits = Array("123456789".utf8)
        digits.withUnsafeBytes { bytes in
            #expect(CRC32C.softwareUpdate(CRC32C.empty, bytes) == 0xE306_9283)
            if frk_crc32c_hardware_available() != 0 {
                #expect(frk_crc32c_hardware_update(0, bytes.baseAddress, bytes.count) == 0xE306_9283)
            }
        }
        #expect(CRC32C.usesHardware == (frk_crc32c_hardware_available() != 0))
    }

    /// The processor's instruction and the tables agree on every length from 0 to 300, from
    /// every alignment, extending any checksum; and `update` agrees with both.
    @Test("hardware and software agree", arguments: testSeeds(count: 4))
    func hardwareMatchesSoftware(seed: UInt64) {
        let buffer = Self.expectMethodsAgree(seed: seed, lengths: Array(0...300)) { _, count in count % 3 == 0 }
        buffer.withUnsafeBytes { all in
            // Split anywhere, the two halves chain to the checksum of the whole.
            let whole = CRC32C.softwareUpdate(CRC32C.empty, all)
            for split in [0, 1, 7, 8, 9, 150, 307, all.count] {
                let head = CRC32C.update(CRC32C.empty, UnsafeRawBufferPointer(rebasing: all[..<split]))
                #expect(CRC32C.update(head, UnsafeRawBufferPointer(rebasing: all[split...])) == whole, "seed \(seed), split \(split)")
            }
        }
    }

    /// Checks that `update` and the processor's instruction (where there is one) give the
    /// tables' checksum for every length of `lengths` from each start 0 to 7 of a seeded
    /// random buffer, extending the empty checksum where `extendsEmpty(start, count)` and a
    /// random one elsewhere.
    ///
    /// - Returns: The buffer (the longest length plus 8 bytes), for further checks.
    static func expectMethodsAgree(seed: UInt64, lengths: [Int], extendsEmpty: (Int, Int) -> Bool) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        let hardware = frk_crc32c_hardware_available() != 0
        var buffer = [UInt8](repeating: 0, count: (lengths.max() ?? 0) + 8)
        for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &random) }
        buffer.withUnsafeBytes { all in
            for start in 0..<8 {
                for count in lengths {
                    let bytes = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                    let initial = extendsEmpty(start, count) ? CRC32C.empty : UInt32.random(in: 0...UInt32.max, using: &random)
                    let software = CRC32C.softwareUpdate(initial, bytes)
                    #expect(CRC32C.update(initial, bytes) == software, "seed \(seed), start \(start), count \(count)")
                    if hardware {
                        let computed = frk_crc32c_hardware_update(initial, bytes.baseAddress, bytes.count)
                        #expect(computed == software, "seed \(seed), start \(start), count \(count)")
                    }
                }
            }
        }
        return buffer
    }
}
