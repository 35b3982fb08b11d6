/// The first bytes of a UTF-8 buffer as whole words, for the summary of a string key
/// (``SortValueSummary``): loading them as two words lets the ASCII check and the packing be
/// a few word operations instead of a loop over bytes.
///
/// **Invariant (upheld here):** at most `min(bytes.count, 16)` bytes are read from the
/// buffer, into a tuple of two `UInt64`s, 16 contiguous bytes of plain memory.
enum LeadingBytes {
    /// The first 16 bytes of `bytes` as two words in memory order (zeros past the end).
    ///
    /// - Parameter bytes: UTF-8 bytes, read for the length of the call only.
    /// - Returns: Bytes 0–7 and 8–15, as they lie in memory (`UInt64(bigEndian:)` makes
    ///   the first byte the most significant).
    @inline(__always)
    static func words(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { words in
            words.copyMemory(from: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[..<min(bytes.count, 16)]))
        }
        return words
    }
}
