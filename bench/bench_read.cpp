// Read speed of the trace readers: `bench_read sacct|swf|slurm_events FILE [RUNS]` parses FILE
// RUNS times (default 3) with the reader the job files use and prints lines per second of wall
// time for each run and their median. Peak memory: run it under /usr/bin/time -v (one run).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "faultsweep/failures/slurm_events.hpp"
#include "faultsweep/workload/sacct.hpp"
#include "faultsweep/workload/swf.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_read sacct|swf|slurm_events FILE [RUNS]\n");
    return 2;
  }
  const std::string kind = argv[1], file = argv[2];
  const int runs = argc > 3 ? std::atoi(argv[3]) : 3;
  std::vector<double> rates;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    long long lines = 0, kept = 0;
    if (kind == "sacct") {
      faultsweep::workload::SacctOptions o;
      o.machine_nodes = 1024;
      const auto d = faultsweep::workload::read_sacct(file, o);
      lines = d.stats.lines, kept = d.stats.jobs;
    } else if (kind == "swf") {
      const auto w = faultsweep::workload::read_swf(file);
      lines = w.stats.lines, kept = w.stats.jobs;
    } else {
      const auto log = faultsweep::failures::read_slurm_events(file, {});
      lines = static_cast<long long>(log.lines), kept = static_cast<long long>(log.events.size());
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rates.push_back(static_cast<double>(lines) / s);
    std::printf("%s run %d: %lld lines, %lld kept, %.3f s, %.3g lines/s\n", kind.c_str(), r + 1,
                lines, kept, s, rates.back());
  }
  std::sort(rates.begin(), rates.end());
  std::printf("%s median: %.3g lines/s\n", kind.c_str(), rates[rates.size() / 2]);
  return 0;
}
