import Checksum
import Testing
import TestSupport

@testable import GraphStore

/// The checksums of record-sized buffers: long enough for the processor's three-stream steps
/// (three blocks of 256 bytes from 768 bytes on, three of 8 KiB from 24 KiB on), which the
/// short lengths of `CRC32CTests` never reach.
@Suite("CRC32C of record-sized buffers")
struct RecordChecksumTests {
    /// Lengths on each side of every step's threshold and of a values record's fragments.
    static let lengths = [
        767, 768, 769, 775, 776, 1_535, 1_536, 1_543, 2_000, 3 * 256 * 11 + 7,
        24_575, 24_576, 24_577, 24_576 + 768, 24_576 + 767, 32_768, 49_152 + 1_000, 73_728 + 5, 100_003,
    ]

    @Test("The processor's streams and the tables agree on long buffers, from every alignment, extending any checksum",
          arguments: testSeeds(count: 2))
    func longBuffersMatchSoftware(seed: UInt64) {
        _ = CRC32CTests.expectMethodsAgree(seed: seed, lengths: Self.lengths) { start, _ in start % 2 == 0 }
    }

    @Test("A long run of zeros and one of ones, whose blocks are alike: the known checksums")
    func uniformBuffers() {
        // The checksum of n zero bytes, and of n 0xFF bytes, by the bit-at-a-time definition.
        func reference(_ byte: UInt8, count: Int) -> UInt32 {
            var crc: UInt32 = ~0
            for _ in 0..<count {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            }
            return ~crc
        }
        for count in [768, 24_576, 30_000] {
            #expect(CRC32C.checksum([UInt8](repeating: 0, count: count)) == reference(0, count: count), "zeros, count \(count)")
            #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: count)) == reference(0xFF, count: count), "ones, count \(count)")
        }
    }
}
