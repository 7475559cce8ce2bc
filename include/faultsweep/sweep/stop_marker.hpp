#pragma once
// OUT.stopping: rank 0's acknowledgement of a stop request, for a script that forwards the
// stop signal to mpirun and must stop repeating it once the ranks have taken it (a signal that
// reaches mpirun while it tears down after the ranks' exit 75 kills it). Written when the
// coordinator has stopped handing out work because of a stop request, before the partial file
// is written; removed when the next run of the same output starts.
#include <filesystem>

namespace faultsweep::sweep {

std::filesystem::path stop_marker_path(const std::filesystem::path& out);
// Best effort: a marker that cannot be written only means the script keeps repeating the signal.
void write_stop_marker(const std::filesystem::path& out, int signal);
void remove_stop_marker(const std::filesystem::path& out);

}  // namespace faultsweep::sweep
