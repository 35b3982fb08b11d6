// Every memory technique of the GraphStore module that the compiler does not check, and the
// invariant that makes each one sound. The rest of the module reaches raw memory, unretained
// objects and unaligned loads only through the types and functions of this folder (a test,
// the GraphStore `UnsafeConfinementTests`, keeps it so).
//
// | technique                                        | where                                   | invariant upheld by |
// | ------------------------------------------------ | --------------------------------------- | ------------------- |
// | bytes encoded into memory allocated by hand, stored without bounds checks | `RawByteWriter` (RawByteWriter.swift) | the writer alone: `count` of `capacity` bytes written, every allocated byte initialized, one owner (noncopyable) |
// | a bounded column written from a pointer kept in a register | `BoundedColumnValue` (BoundedColumnValue.swift) | `put(_:at:)` writes at most `columnByteBound` bytes, the room `RawByteWriter.withRoom(_:_:)` reserved per object |
// | bytes decoded through a pointer cursor           | `ByteCursor` (ByteCursor.swift)          | a cursor lives only inside `ByteCursor.over(_:at:stop:_:)`; every read checks the room left |
// | CRC-32C over raw words, with the processor's instruction or tables | `CRC32C` (CRC32C.swift)   | loads stay inside the buffer it is given; the tables are immutable |
// | integers and UUIDs loaded and stored at any offset | `loadLittleEndian`, `storeLittleEndian`, `UUID(storedBytes:)` (UnalignedAccess.swift) | callers check the room (asserted in debug builds); unaligned loads of plain values |
// | a snapshot's objects held unretained in memory allocated once, with their serials | `Snapshot.ObjectList`, `Snapshot.ObjectChunk`, `Snapshot.SerialScratch` (Snapshot.ObjectList.swift) | the graph does not change while a snapshot is written, and its entity tables keep every object alive; a list is refilled only after every lane of a batch is done with it |
// | a C function's address cast to its C type        | `posixSyncFileRange` (PosixSyncFileRange.swift) | `dlsym` found `sync_file_range`, whose prototype is that type |
//
// Attribute values are read from and written into objects in place by ObjectGraph's
// `AttributeValueSlot` (`Sources/ObjectGraph/Unsafe/AttributeValueSlot.swift`), which states
// its own invariant: this module holds no offset into an object.
//
// Byte views: `UnsafeRawBufferPointer`, `withUnsafeBytes` and `withUnsafeMutableBytes` lend
// bytes the caller holds for the length of one call (to a file's write or read, a checksum,
// a framing or an append), with no pointer kept past the call, no load or store of its own
// and no arithmetic beyond `rebasing:` a slice of the same bytes. They are the store's
// currency for bytes and stay where they are; the files that use them are these:
// `Files/DirectoryWatcher.swift`, `Files/PosixFileSystem.swift` (buffers handed to `read`,
// `pwrite` and `readdir`'s names), `Files/SimulatedFileSystem.swift`,
// `Files/StoreFileSystem.swift`, `RecordFiles/RecordFormat.swift`,
// `RecordFiles/RecordFramer.swift`, `RecordFiles/RecordReader.swift`,
// `RecordFiles/RecordWriter.swift`, `RecordFiles/RecordWriter+FilePolicy.swift`,
// `RecordFiles/RecordWriter+Records.swift`,
// `Records/GraphRecords.swift`, `Records/Snapshot.Appender.swift`,
// `Records/Snapshot.ValuesEncoder.swift`, `Records/Snapshot.swift`,
// `Store/JournalEndMarker.swift`, `Values/AttributeCodec.swift`, `Values/ByteBuffers.swift`,
// `Values/StoredPrimitive+RawByteWriter.swift`, `Values/StoredValue.swift`.
//
// Checked in debug builds only: `unsafeDowncast`, `unsafelyUnwrapped` and
// `unsafeUninitializedCapacity` are not used outside this folder (`ByteCursor` unwraps the
// address of an empty buffer, a constant that is never `nil`).
