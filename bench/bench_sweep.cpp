// Framework overhead per task: runs `synthetic` tasks with zero work on this process's ranks
// (run it plain for 1 rank, or under mpirun) and prints microseconds of overhead per task:
// job expansion, scheduling, messages, journal and the HDF5 file. Not a test.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "faultsweep/sweep/runner.hpp"

int main(int argc, char** argv) {
  const int points = argc > 1 ? std::atoi(argv[1]) : 2000;
  const int replicas = argc > 2 ? std::atoi(argv[2]) : 50;
  const auto dir = std::filesystem::temp_directory_path() / "faultsweep_bench_sweep";
  std::filesystem::create_directories(dir);
  const auto job = dir / "zero_work.toml";
  const auto out = dir / "zero_work.h5";
  {
    std::ofstream f(job);
    f << fmt::format(
        "[sweep]\nmodel = \"synthetic\"\nreplicas = {}\n[params]\nwork = 0\n"
        "[axes]\nmean = {{ linear = [0, 1], n = {} }}\n",
        replicas, points);
  }
  faultsweep::sweep::RunOptions opt;
  opt.job_path = job.string();
  opt.out = out.string();
  opt.overwrite = true;
  opt.quiet = true;
  const auto t0 = std::chrono::steady_clock::now();
  const int code = faultsweep::sweep::run_sweep(opt);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double tasks = static_cast<double>(points) * replicas;
  const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");  // MPI is finalised by now
  if (!rank || std::string(rank) == "0")
    std::printf(
        "bench_sweep: %.0f zero-work tasks in %.3f s: %.2f us per task (%.0f tasks/s), "
        "exit code %d\n",
        tasks, s, 1e6 * s / tasks, tasks / s, code);
  return code;
}
