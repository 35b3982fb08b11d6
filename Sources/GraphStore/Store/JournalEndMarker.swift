import Foundation

/// What a store's last clean close proved about its journal: the file `journal.closed`,
/// written by ``GraphStore/close()`` once every commit is synced.
///
/// A journal whose last records were lost whole (the file cut at a record's start, or its end
/// turned to zeros), or whose last acknowledged record was damaged, looks to a reader of the
/// journal alone like a journal whose last commit never finished. The marker says which
/// record the journal reached when the store closed, so that opening tells the two apart: a
/// journal that ends before that record lost acknowledged commits.
///
/// The marker belongs to one journal file: it names the journal's generation and salt, and a
/// marker of another journal (a compaction, a rewrite after damage) is ignored. It is never
/// wrong once written, only out of date: a store reopened and appended to proves more than
/// its marker, and a crash leaves the older claim, which still holds. A marker that cannot
/// be read (torn, or missing because its directory entry was not synced) proves nothing.
///
/// Layout (48 bytes, little-endian): magic `"FRKCLOSE"` (8), generation (8), the journal's
/// salt (8), the last record's sequence number (8), the offset past the last record (8),
/// reserved zero (4), masked CRC-32C of the bytes before it (4).
struct JournalEndMarker: Equatable {
    /// The journal's compaction generation.
    var generation: UInt64
    /// The journal's salt (from its header).
    var salt: UInt64
    /// The sequence number of the journal's last record when the store closed.
    var lastSequence: UInt64
    /// The offset just past that record.
    var endOffset: UInt64

    /// The marker's name in the store's directory.
    static let name = "journal.closed"
    static let magic: UInt64 = 0x4553_4F4C_434B_5246 // "FRKCLOSE"
    static let size = 48

    func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.size)
        for value in [Self.magic, generation, salt, lastSequence, endOffset] { appendLittleEndian(value, to: &bytes) }
        appendLittleEndian(UInt32(0), to: &bytes)
        appendLittleEndian(CRC32C.mask(CRC32C.checksum(bytes)), to: &bytes)
        return bytes
    }

    /// Decodes a marker; `nil` when the bytes are not a whole, intact one.
    static func decode(_ bytes: [UInt8]) -> JournalEndMarker? {
        guard bytes.count == size, loadLittleEndian(UInt64.self, bytes, 0) == magic,
              CRC32C.mask(CRC32C.checksum(bytes[0..<44])) == loadLittleEndian(UInt32.self, bytes, 44) else { return nil }
        return JournalEndMarker(
            generation: loadLittleEndian(UInt64.self, bytes, 8), salt: loadLittleEndian(UInt64.self, bytes, 16),
            lastSequence: loadLittleEndian(UInt64.self, bytes, 24), endOffset: loadLittleEndian(UInt64.self, bytes, 32))
    }

    /// The marker in a store's directory, if there is an intact one.
    static func read(directory: String, fileSystem: any StoreFileSystem) -> JournalEndMarker? {
        let path = directory + "/" + name
        guard fileSystem.fileExists(path), let bytes = try? fileSystem.readFile(path) else { return nil }
        return decode(bytes)
    }

    /// Whether the marker speaks of the journal with this header.
    func describes(_ header: RecordFileHeader) -> Bool {
        generation == header.generation && salt == header.salt
    }

    /// Writes the marker in place and syncs it (the directory is synced when the file is new).
    ///
    /// - Throws: What the file system throws; a marker that did not reach the disk whole
    ///   proves nothing, which is safe.
    func write(directory: String, fileSystem: any StoreFileSystem) throws {
        let path = directory + "/" + Self.name
        let isNew = !fileSystem.fileExists(path)
        let file = try fileSystem.openFile(path, create: true)
        defer { file.close() }
        try encoded().withUnsafeBytes { try file.write($0, at: 0) }
        try file.sync()
        if isNew { try fileSystem.syncDirectory(directory) }
    }
}
