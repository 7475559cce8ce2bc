#pragma once
// Running a sweep on all MPI ranks (DESIGN §6): rank 0 coordinates (in its main thread) and also
// computes (in a worker thread); every other rank is a worker. Work goes out in batches, most
// expensive tasks first; results stream into the journal and, at the end, into the HDF5 file.
#include <string>

namespace faultsweep::sweep {

struct JobSpec;

// Exit codes of `faultsweep run` (documented in --help and the README).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInput = 2;         // bad job file or command line
inline constexpr int kExitIo = 3;            // a file could not be read or written
inline constexpr int kExitInternal = 4;      // a bug, or a model failed
inline constexpr int kExitInterrupted = 75;  // stopped by SIGTERM/SIGINT: rerun with --resume

struct RunOptions {
  std::string job_path;
  std::string out;         // overrides sweep.output
  bool resume = false;     // continue from OUT.journal (or a partial OUT)
  bool overwrite = false;  // replace an existing OUT instead of refusing
  bool quiet = false;      // no progress line
  std::string slice;       // "i/n": run only slice i of n (see rounds.hpp); empty: everything
};

// Runs the job on MPI_COMM_WORLD (initialises MPI itself; works without mpirun as one rank).
// Returns the exit code; every rank returns the same code.
int run_sweep(const RunOptions& options);

// The checks `run` makes of its output (`out`, or sweep.output if empty) before it starts: its
// folder exists, it is not a folder, device or FIFO, its name fits. Throws InputError
// (file:line). `check` makes them too: a Slurm job validated by `check` must not die on them
// after queueing.
void check_output(const JobSpec& job, const std::string& out);

}  // namespace faultsweep::sweep
