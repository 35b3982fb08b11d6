import Foundation
@testable import GraphStore
import ObjectGraph
import Testing
import TestSupport

/// Random damage to a closed store's files, including what used to pass for a clean end:
/// a deleted file, the journal cut at a record's start or in its middle, a bit flipped in its
/// last record. Under `.refuse` every open throws or opens exactly the acknowledged graph,
/// never a smaller one; under `.salvage` an open that lost anything says so.
@Suite("GraphStore: random damage to a closed store")
struct GraphStoreDamageFuzzTests {
    static let path = "/store"
    static let trials = 60

    /// The kinds of damage a trial picks from.
    enum Harm: CaseIterable {
        case deleteJournal, deleteSnapshot, cutAtRecordStart, cutInRecord, flipInLastRecord, flipAnywhere, zeroTheEnd, garbleSpan
    }

    @Test(arguments: testSeeds(count: 4))
    func randomDamageIsRefusedOrHarmless(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let original = SimulatedFileSystem()
        var workload = StoreWorkload(seed: seed)
        let store = try GraphStoreCrashTests.open(original)
        for step in 0..<40 {
            try workload.commitEdits(store.graph)
            if step == 15 && seed % 2 == 0 { try store.compact() }
        }
        let acknowledged = dump(store.graph)
        store.close()
        let journal = Self.path + "/journal"
        let snapshot = Self.path + "/snapshot"
        var records: [RecordReader.Record] = []
        var reader = try RecordReader(bytes: original.readFile(journal), path: journal)
        while let event = reader.next() {
            if case .record(let record) = event { records.append(record) }
        }
        for trial in 0..<Self.trials {
            let fileSystem = try GraphStoreEvolutionTests.copy(original)
            let harm = Harm.allCases.randomElement(using: &random)!
            let journalBytes = try fileSystem.readFile(journal)
            let last = records.last!
            switch harm {
            case .deleteJournal: try fileSystem.remove(journal)
            case .deleteSnapshot: try fileSystem.remove(snapshot)
            case .cutAtRecordStart:
                try Self.truncate(fileSystem, journal, to: records.randomElement(using: &random)!.offset)
            case .cutInRecord:
                try Self.truncate(fileSystem, journal, to: UInt64.random(in: UInt64(RecordFormat.fileHeaderSize)..<last.endOffset, using: &random))
            case .flipInLastRecord:
                let at = Int.random(in: Int(last.offset)..<Int(last.endOffset), using: &random)
                fileSystem.corrupt(journal, at: at, with: [journalBytes[at] ^ (1 << UInt8.random(in: 0..<8, using: &random))])
            case .flipAnywhere:
                let file = Bool.random(using: &random) ? journal : snapshot
                let bytes = try fileSystem.readFile(file)
                let at = Int.random(in: 0..<bytes.count, using: &random)
                fileSystem.corrupt(file, at: at, with: [bytes[at] ^ (1 << UInt8.random(in: 0..<8, using: &random))])
            case .zeroTheEnd:
                let from = Int(records.randomElement(using: &random)!.offset)
                fileSystem.corrupt(journal, at: from, with: [UInt8](repeating: 0, count: Int(last.endOffset) - from))
            case .garbleSpan:
                let at = Int.random(in: RecordFormat.fileHeaderSize..<Int(last.endOffset), using: &random)
                let count = min(Int.random(in: 1...64, using: &random), journalBytes.count - at)
                fileSystem.corrupt(journal, at: at, with: (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
            }
            let context = "seed \(seed), trial \(trial), \(harm)"
            do {
                let opened = try GraphStoreCrashTests.open(try GraphStoreEvolutionTests.copy(fileSystem), .refuse)
                let state = dump(opened.graph)
                #expect(state == acknowledged, "\(context): opened a smaller graph under .refuse: \(opened.openReport)\(difference(state, acknowledged))")
                opened.close()
            } catch {
                #expect(error is GraphStoreError, "\(context): \(error)")
            }
            // Salvage opens, and says so when anything acknowledged is missing.
            do {
                let salvaged = try GraphStoreCrashTests.open(fileSystem, .salvage)
                let state = dump(salvaged.graph)
                if state != acknowledged {
                    #expect(!salvaged.openReport.isClean, "\(context): salvage lost data and called it clean: \(salvaged.openReport)")
                }
                salvaged.close()
            } catch {
                // A header damaged beyond use (not this store's, another version) is refused.
                #expect(error is GraphStoreError, "\(context): \(error)")
            }
        }
    }

    static func truncate(_ fileSystem: SimulatedFileSystem, _ path: String, to size: UInt64) throws {
        let file = try fileSystem.openFile(path, create: false)
        try file.truncate(to: size)
        try file.sync()
        file.close()
    }
}
