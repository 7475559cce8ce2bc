// The share folder of an installed binary, found from /proc/self/exe (no compiled-in prefix, so
// an installed tree can be moved or copied as a whole).
#include "faultsweep/core/install_dirs.hpp"

#include <system_error>

namespace faultsweep {

std::filesystem::path share_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.empty()) return {};
  // The program is in PREFIX/libexec/faultsweep/ (behind the launcher in PREFIX/bin/); a
  // binary in PREFIX/bin/ itself (a tool built against the library) looks one level up.
  for (const auto& prefix :
       {exe.parent_path().parent_path().parent_path(), exe.parent_path().parent_path()}) {
    const std::filesystem::path share = prefix / "share" / "faultsweep";
    if (std::filesystem::is_directory(share, ec)) return share;
  }
  return {};
}

std::string bundled_path(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (path.empty() || p.is_absolute() || std::filesystem::exists(p, ec)) return path;
  const std::filesystem::path share = share_dir();
  if (share.empty() || !std::filesystem::exists(share / p, ec)) return path;
  return (share / p).string();
}

}  // namespace faultsweep
