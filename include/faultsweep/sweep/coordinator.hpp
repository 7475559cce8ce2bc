#pragma once
// The coordinator (rank 0's main thread) and the workers (a thread on rank 0, and every other
// rank). Messages are Boost.MPI; the coordinator polls and sleeps briefly when idle, so it
// costs little CPU next to rank 0's own worker.
#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <boost/mpi/communicator.hpp>

#include "faultsweep/sweep/job.hpp"
#include "faultsweep/sweep/journal.hpp"
#include "faultsweep/sweep/record_store.hpp"
#include "faultsweep/sweep/store.hpp"

namespace faultsweep::sweep {

struct CoordinatorOutcome {
  // io_error: the journal could not be written (disk full): the run stopped like on SIGTERM.
  enum Status { complete, interrupted, input_error, failed, io_error } status = complete;
  std::string error;   // for input_error / failed
  double seconds = 0;  // wall time of the run
};

// Runs every missing task of the job on all ranks, recording results in table and journal.
// A non-empty task_mask restricts the sweep to the tasks where it is non-zero (a slice).
// Recorded tasks' tables go to `records` (journal and memory) when given.
CoordinatorOutcome coordinate(const JobSpec& job, boost::mpi::communicator& world,
                              ResultTable& table, Journal& journal, bool progress,
                              std::vector<char> task_mask = {}, RecordOutput* records = nullptr);

// The loop of ranks > 0: ask for work, run it, report, until told to stop.
void run_remote_worker(const JobSpec& job, boost::mpi::communicator& world);

// One task: point task / R, replica task % R, with R = job.replicas.max. When the job's record
// selection names the task and `records` is given, its records go there (encoded), else it is
// left empty. `stop` (default: the process's stop request) ends the task early by throwing
// Interrupted (`plan` gives its pilot a time limit this way).
void run_task(const JobSpec& job, std::uint64_t task, std::span<double> out,
              std::vector<unsigned char>* records = nullptr,
              const std::atomic<bool>* stop = nullptr);

}  // namespace faultsweep::sweep
