#pragma once
// `faultsweep merge`: results files of one job combined into one.
#include <cstddef>
#include <filesystem>
#include <vector>

namespace faultsweep::sweep {

struct MergeOutcome {
  std::size_t tasks_done = 0, tasks_total = 0;
  bool complete = false;
};

// `faultsweep merge`: combines results files of one job (slices, partial files of interrupted
// runs, complete files) into OUT, written atomically. Refuses (InputError) files of different
// jobs (and says what differs) and tasks present in two files with different bits; takes the
// union of the done tasks, recomputes /summary, and marks OUT complete when nothing is left to
// run (every task of a fixed count; for a stopping rule, when the rule asks for no more
// replicas). The job is re-read from the first input's stored text, so merge runs from the
// folder the sweep ran in (paths in the job are relative to the job file's folder).
MergeOutcome merge_results(const std::filesystem::path& out,
                           const std::vector<std::filesystem::path>& inputs, bool overwrite);

}  // namespace faultsweep::sweep
