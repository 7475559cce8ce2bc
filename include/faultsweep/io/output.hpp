#pragma once
// The rule every command that writes a file (run, merge, fit) follows before it writes anything:
// an existing output is replaced only with --overwrite, only when it is an HDF5 file of the
// command's own kind (root attribute `filetype`), and never when it is one of the command's own
// inputs. A job file, a failure log, a CSV or a results file of the other kind is never replaced,
// whatever the flags: --overwrite is for rerunning a command, not for choosing a victim.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace faultsweep::io {

struct OutputRule {
  std::string option;    // how messages name the output: "--out", "OUT"
  std::string filetype;  // the command's own kind, e.g. "faultsweep-results"
  // What to say when the output exists and --overwrite was not given.
  std::string without_overwrite = "pass --overwrite to replace it";
};

// One input of the command and how messages name it ("the job file itself", "the failure log").
struct NamedInput {
  std::filesystem::path path;
  std::string what;
};

// Throws InputError naming `out` when the command must not write it: it is one of `inputs` (the
// same file, also through a link), a folder or not a regular file, exists without `overwrite`,
// or is anything but an HDF5 file whose filetype is `rule.filetype`. Does nothing when `out`
// does not exist.
void check_output(const std::filesystem::path& out, const OutputRule& rule, bool overwrite,
                  const std::vector<NamedInput>& inputs);

// The root attribute `filetype` of an HDF5 file ("" when it has none); nullopt when the file
// cannot be opened as HDF5.
std::optional<std::string> hdf5_filetype(const std::filesystem::path& file);

}  // namespace faultsweep::io
