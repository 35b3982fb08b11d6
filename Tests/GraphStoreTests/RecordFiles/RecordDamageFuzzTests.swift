import Foundation
import Testing
import TestSupport

@testable import GraphStore

/// Random damage to a record file, with or without zeros written ahead of its records: it is
/// always detected (except zeros running to the end of the file, which no reader can tell
/// from zeros never overwritten), never returned as wrong data, and every record with no
/// fragment in a damaged block is kept.
@Suite("RecordReader: random damage")
struct RecordDamageFuzzTests {
    static let trialsPerSeed = 150

    @Test("bit flips, byte overwrites, zeroed spans and truncations", arguments: testSeeds(count: 8))
    func randomDamage(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let sizes = (0..<60).map { _ in
            Int.random(in: 0...10, using: &random) == 0 ? Int.random(in: 0...40_000, using: &random) : Int.random(in: 0...300, using: &random)
        }
        let fixture = try RecordFixture(sizes: sizes, salt: random.next())
        // Half the seeds read a journal with zeros ahead of its records, as a preallocating
        // writer leaves it.
        let zerosAhead = seed % 2 == 0 ? Int.random(in: 1...70_000, using: &random) : 0
        let original = try fixture.bytes + [UInt8](repeating: 0, count: zerosAhead)
        let blockSize = RecordFormat.blockSize
        let dataStart = RecordFormat.fileHeaderSize
        for trial in 0..<Self.trialsPerSeed {
            var bytes = original
            var damagedBlocks = Set<Int>()
            var truncatedAt: Int?
            for _ in 0..<Int.random(in: 1...3, using: &random) where bytes.count > dataStart {
                let at = Int.random(in: dataStart..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    bytes[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &random)
                case 1:
                    let end = min(bytes.count, at + Int.random(in: 1...16, using: &random))
                    for index in at..<end { bytes[index] = UInt8.random(in: 0...255, using: &random) }
                case 2:
                    let end = min(bytes.count, at + Int.random(in: 1...2000, using: &random))
                    for index in at..<end { bytes[index] = 0 }
                default:
                    if truncatedAt == nil {
                        truncatedAt = at
                        bytes.removeSubrange(at...)
                    }
                }
            }
            for index in dataStart..<bytes.count where bytes[index] != original[index] {
                damagedBlocks.insert(index / blockSize)
            }
            let context = "seed \(seed), trial \(trial), \(zerosAhead) zeros ahead"
            let scan = try fixture.scan(bytes)
            // Never wrong data, never out of order.
            var previous: UInt64 = 0
            for record in scan.records {
                #expect(record.sequence > previous, "\(context)")
                previous = record.sequence
                #expect(Array(record.payload) == fixture.payloads[record.sequence], "\(context): record \(record.sequence)")
                #expect(record.offset..<record.endOffset == fixture.extents[record.sequence], "\(context)")
            }
            // Damage is always detected, unless it left only zeros after the last record kept.
            if !damagedBlocks.isEmpty {
                let endsInZeros = bytes[Int(scan.validEnd)...].allSatisfy { $0 == 0 }
                #expect(!scan.damages.isEmpty || scan.tail != nil || endsInZeros, "\(context): damage not reported")
            }
            // Every record outside the damaged blocks (and before a truncation) is kept.
            let kept = Set(scan.records.map(\.sequence))
            for (sequence, extent) in fixture.extents {
                let blocks = Int(extent.lowerBound) / blockSize...Int(extent.upperBound - 1) / blockSize
                let untouched = blocks.allSatisfy { !damagedBlocks.contains($0) }
                let present = truncatedAt.map { extent.upperBound <= UInt64($0) } ?? true
                if untouched && present {
                    #expect(kept.contains(sequence), "\(context): lost intact record \(sequence)")
                }
            }
            // Reported spans never cover an intact record that was returned.
            for damage in scan.damages + [scan.tail].compactMap({ $0 }) {
                let span = damage.offset..<damage.offset + damage.length
                for record in scan.records {
                    #expect(!span.overlaps(record.offset..<record.endOffset), "\(context)")
                }
            }
        }
    }
}
