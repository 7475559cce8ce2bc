#pragma once
// How much memory one process may plan to use: the machine's physical memory (or the
// address-space limit, ulimit -v, if smaller), or the environment variable FAULTSWEEP_MEMORY_LIMIT
// (bytes, or a number with kB / MB / GB / TB, e.g. "8GB"; for several ranks on one node, give each
// its share).
#include <cstdint>
#include <string>

namespace faultsweep {

std::uint64_t physical_memory_bytes();  // 0 if unknown

struct MemoryLimit {
  std::uint64_t bytes = 0;  // 0: unknown (no limit)
  std::string source;       // "this machine's memory" or "FAULTSWEEP_MEMORY_LIMIT = ..."
};
// Throws InputError when FAULTSWEEP_MEMORY_LIMIT is set but not a size.
MemoryLimit memory_limit();

// Keeps memory that a replica frees in the process, for the next replica to reuse, instead of
// handing it back to the system and having every page of it faulted in and zeroed again: blocks
// up to 32 MiB come from the heap and the heap's free top is kept up to 1 GiB (glibc's mallopt;
// elsewhere a no-op). The process's resident size then stays near its peak. Call once, early.
void keep_freed_memory();

}  // namespace faultsweep
