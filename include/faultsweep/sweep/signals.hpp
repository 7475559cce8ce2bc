#pragma once
// SIGTERM / SIGINT / SIGUSR1 (Slurm sends SIGTERM before the walltime; Open MPI's mpirun
// forwards SIGUSR1 to every rank) set a flag; the sweep stops handing
// out work, saves what has finished and exits with kExitInterrupted.
#include <atomic>

namespace faultsweep::sweep {

void install_stop_handlers();
const std::atomic<bool>& stop_requested();
int stop_signal();  // the signal that set the flag, 0 if none

}  // namespace faultsweep::sweep
