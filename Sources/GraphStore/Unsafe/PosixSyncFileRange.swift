import Glibc

// Invariant: `dlsym` returns the address of the C function `sync_file_range`, whose
// prototype is `int sync_file_range(int fd, off64_t offset, off64_t nbytes, unsigned int
// flags)`; the cast gives the address that exact C type, so every call passes its arguments
// as the function reads them.

/// Linux's `sync_file_range(2)`, looked up at run time: the Glibc module does not declare it.
let posixSyncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
    guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
}()
