#include "faultsweep/io/output.hpp"

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/io/h5.hpp"

namespace faultsweep::io {

std::optional<std::string> hdf5_filetype(const std::filesystem::path& file) {
  try {
    File f = File::open_read(file);
    return has_attr(f.id(), "filetype") ? read_attr_string(f.id(), "filetype", file.string())
                                        : std::string();
  } catch (const H5Error&) {
    return std::nullopt;
  }
}

void check_output(const std::filesystem::path& out, const OutputRule& rule, bool overwrite,
                  const std::vector<NamedInput>& inputs) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(out, ec);
  if (!fs::exists(st)) return;
  const auto refuse = [&](const std::string& why) {
    return InputError(rule.option, out.string(), why);
  };
  for (const NamedInput& in : inputs) {
    std::error_code e;
    if (fs::equivalent(out, in.path, e))
      throw refuse(fmt::format("is {}; --overwrite will not replace it", in.what));
  }
  if (fs::is_directory(st)) throw refuse("is a folder; expected a file name such as x.h5");
  if (!fs::is_regular_file(st))
    throw refuse("exists and is not a regular file (a device, FIFO or socket); name a new file");
  if (!overwrite)
    throw InputError(fmt::format("{} exists; {}", out.string(), rule.without_overwrite));
  const std::optional<std::string> kind = hdf5_filetype(out);
  if (kind && *kind == rule.filetype) return;
  const std::string is = !kind           ? "not an HDF5 file"
                         : kind->empty() ? "an HDF5 file without a filetype"
                                         : fmt::format("a \"{}\" file", *kind);
  throw refuse(fmt::format(
      "exists and is {}; --overwrite replaces only a \"{}\" file: remove it yourself or name "
      "another output",
      is, rule.filetype));
}

}  // namespace faultsweep::io
