#include "faultsweep/sweep/stop_marker.hpp"

#include <unistd.h>

#include <cstdio>
#include <system_error>

namespace faultsweep::sweep {
namespace fs = std::filesystem;

fs::path stop_marker_path(const fs::path& out) {
  return fs::path(out.string() + ".stopping");
}

void write_stop_marker(const fs::path& out, int signal) {
  // Written under a temporary name and renamed: whoever sees the marker sees all of it.
  const fs::path marker = stop_marker_path(out);
  const fs::path tmp = fs::path(marker.string() + ".tmp." + std::to_string(::getpid()));
  std::FILE* f = std::fopen(tmp.c_str(), "w");
  if (f == nullptr) return;
  std::fprintf(f, "stop request taken (signal %d) by rank 0, pid %ld: saving the finished tasks\n",
               signal, static_cast<long>(::getpid()));
  const bool ok = std::fclose(f) == 0;
  std::error_code ec;
  if (ok) fs::rename(tmp, marker, ec);
  if (!ok || ec) fs::remove(tmp, ec);
}

void remove_stop_marker(const fs::path& out) {
  std::error_code ec;
  fs::remove(stop_marker_path(out), ec);
}

}  // namespace faultsweep::sweep
