@testable import GraphStore
import Testing

/// What an open report says, which the demo and logs show a person: every finding, and what
/// the open dropped without loss, whether the open was clean or not.
@Suite("GraphStore.OpenReport: description")
struct OpenReportTests {
    @Test func cleanOpensNameWhatWasDroppedWithoutLoss() {
        var report = GraphStore.OpenReport()
        report.replayedCommits = 3
        #expect(report.description == "opened cleanly, 3 commits replayed")
        report.tornTailBytes = 40
        report.unsyncedRecordsDropped = 2
        report.discardedOldJournal = true
        #expect(report.isClean)
        #expect(
            report.description
                == "opened cleanly, 3 commits replayed; an unfinished last commit (40 bytes) was dropped; "
                + "2 commits written after the last sync were dropped; an old journal already in the snapshot was discarded"
        )
        report.created = true
        #expect(report.description.hasPrefix("created a new store; "))
    }

    @Test func damagedOpensStillNameATornTailAndUnsyncedRecords() {
        var report = GraphStore.OpenReport()
        report.replayedCommits = 7
        report.damage = [GraphStore.Damage(file: "journal", offset: 64, length: 32, afterSequence: 4, beforeSequence: 6, reason: "checksum mismatch")]
        report.tornTailBytes = 12
        report.unsyncedRecordsDropped = 1
        #expect(!report.isClean)
        #expect(
            report.description.split(separator: "\n")
                == [
                    "opened with damage: 7 commits replayed, 0 objects kept",
                    "damaged: journal: 32 bytes at 64 (checksum mismatch), after record 4, before record 6",
                    "an unfinished last commit (12 bytes) was dropped",
                    "1 commit written after the last sync was dropped",
                ]
        )
    }
}
