#pragma once
// The caveats a results file keeps in /warnings (shown by `faultsweep inspect`): the notices of
// loading the job (what an input reader dropped, settings under which jobs can hardly progress)
// and, for each metric of unit "flag", how many finished replicas raised it. Notices survive
// resume (the job is loaded again) and merge (the union of the inputs'); the flag lines are
// recomputed from the results each time the file is written.
#include <string>
#include <vector>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

std::vector<std::string> result_warnings(const std::vector<std::string>& notices,
                                         const JobSpec& job, const ResultTable& t);

// The notices among stored warnings (the flag lines dropped: they are recomputed).
std::vector<std::string> notices_of(const std::vector<std::string>& warnings);

// Adds to `into` the texts of `more` it does not hold yet, in order.
void add_new(std::vector<std::string>& into, const std::vector<std::string>& more);

}  // namespace faultsweep::sweep
