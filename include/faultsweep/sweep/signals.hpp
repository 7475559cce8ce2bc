#pragma once
// SIGTERM / SIGINT / SIGUSR1 (Slurm sends SIGTERM before the walltime; Open MPI's mpirun
// forwards SIGUSR1 to every rank) set a flag; the sweep stops handing out work, abandons the
// tasks under way (they run again on resume), saves what has finished and exits with
// kExitInterrupted. The handlers go in first thing in main, before MPI starts, and stay until
// the process exits: a signal at any moment of `run` is a clean stop, never a death.
#include <atomic>

namespace faultsweep::sweep {

void install_stop_handlers();
// For the commands other than `run`: the default dispositions again (a signal ends them), and a
// signal caught while the command line was parsed is raised now.
void release_stop_handlers();
const std::atomic<bool>& stop_requested();
int stop_signal();  // the signal that set the flag, 0 if none

}  // namespace faultsweep::sweep
