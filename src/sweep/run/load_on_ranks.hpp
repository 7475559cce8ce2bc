#pragma once
// The first stage of `run` on every rank (private to src/sweep/run): the job loaded and parsed.
#include <boost/mpi.hpp>
#include <optional>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/runner.hpp"

namespace faultsweep::sweep {

namespace mpi = boost::mpi;

// Rank 0 reads the job file, with the Python policy sources it names (read once: the text
// keeps them); every rank parses that text, the ranks other than 0 running the sources it holds
// (adopt_policy_sources), never the files as they are now. Returns 0 with `job` set, or the exit
// code every rank agrees on (rank 0 has said why): 2 bad input, 3 a broken environment (the
// Python of a policy), 75 a stop while a policy's code was loading.
int load_on_ranks(const RunOptions& opt, mpi::communicator& world, std::optional<JobSpec>& job);

}  // namespace faultsweep::sweep
