// The module's one function is inline, in include/MemoryHints.h; SwiftPM builds a C target
// from at least one source file.
#include "MemoryHints.h"
