#pragma once
// Resuming a sweep (private to src/sweep/run): the journal or partial results file of an earlier
// run read back into the result table, after checking it holds the same job, slice and results
// version.
#include <filesystem>
#include <optional>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep::detail {

// The refusal when a live run holds the journal at `journal_path`.
InputError journal_busy(const std::filesystem::path& journal_path);

// Fills `table` from a journal or a partial results file and opens the journal to append to.
// Refuses (InputError) when the job changed since, and says what changed; when it holds another
// slice; when its values are of another results version. Sets *already_complete (and returns
// nothing) for a complete results file.
std::optional<Journal> open_for_resume(const JobSpec& job, const std::filesystem::path& out,
                                       const std::filesystem::path& journal_path,
                                       const std::string& slice, ResultTable& table,
                                       bool* already_complete, TaskRecords* file_records);

}  // namespace faultsweep::sweep::detail
