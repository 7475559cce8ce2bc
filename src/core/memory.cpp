#include "faultsweep/core/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cmath>
#include <cstdlib>
#include <string_view>

#include "faultsweep/core/error.hpp"

namespace faultsweep {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
             : 0;
}

void keep_freed_memory() {
#if defined(__GLIBC__)
  // 32 MiB is the largest mmap threshold glibc accepts on 64-bit systems.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

MemoryLimit memory_limit() {
  const char* env = std::getenv("FAULTSWEEP_MEMORY_LIMIT");
  if (env == nullptr || *env == '\0') {
    MemoryLimit m{physical_memory_bytes(), "this machine's memory"};
    // A smaller address-space limit (ulimit -v, some batch systems) is the one that bites.
    rlimit as{};
    if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY &&
        (m.bytes == 0 || as.rlim_cur < m.bytes))
      m = {static_cast<std::uint64_t>(as.rlim_cur), "the address-space limit, ulimit -v"};
    return m;
  }
  const std::string text(env);
  char* end = nullptr;
  const double x = std::strtod(env, &end);
  const std::string_view unit(end);
  double factor = 0;
  if (unit.empty() || unit == "B") factor = 1;
  if (unit == "kB" || unit == "KB") factor = 1e3;
  if (unit == "MB") factor = 1e6;
  if (unit == "GB") factor = 1e9;
  if (unit == "TB") factor = 1e12;
  if (end == env || factor == 0 || !(x > 0) || !std::isfinite(x * factor) || x * factor > 1e19)
    throw InputError("FAULTSWEEP_MEMORY_LIMIT", text,
                     "a size > 0 in bytes, or with kB, MB, GB or TB (e.g. \"8GB\")");
  return {static_cast<std::uint64_t>(x * factor), "FAULTSWEEP_MEMORY_LIMIT = " + text};
}

}  // namespace faultsweep
