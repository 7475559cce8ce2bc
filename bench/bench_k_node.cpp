// The k_node model's optimum and `faultsweep fit`'s analysis of the whole LANL log.
//  (1) optimal k over k = 1..10,000 for 10,000 heterogeneous nodes (Gottumukkala Fig. 6.6):
//      (a) exponential nodes, rates log-uniform over 1/(10^5 h)..1/(10^3 h);
//      (b) Weibull nodes of one shape (0.7) and log-uniform scales, age 0 (the series system is
//          Weibull: one pass of prefix sums);
//      (c) Weibull nodes of different shapes and ages (the general path: the MTTF on one grid
//          accumulated node by node, R_sys summed over the k nodes at every k: O(k^2)), 3 runs.
//      Each includes sorting the nodes by reliability. Median (min..max) of 20 repetitions.
//  (2) with FAULTSWEEP_DATA set: `fit` of all systems of the LANL log (23,739 records), HDF5
//      output included, median of 3 (wall and CPU seconds of this process and its xz child).
// Usage: bench_k_node [repetitions, default 20]. No pass/fail; the aims are 10 ms and 2 s.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "faultsweep/core/rng.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/reliability/completion.hpp"

namespace {

using namespace faultsweep;
using namespace faultsweep::reliability;
using namespace faultsweep::fit_command;
using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage self{}, child{};
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &child);
  auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6; };
  return s(self.ru_utime) + s(self.ru_stime) + s(child.ru_utime) + s(child.ru_stime);
}

void report(const char* what, std::vector<double> ms, int k_opt) {
  std::sort(ms.begin(), ms.end());
  std::printf("%-58s %9.3f ms (%.3f..%.3f)  k_opt = %d\n", what, ms[ms.size() / 2], ms.front(),
              ms.back(), k_opt);
}

void time_optimum(const char* what, const std::vector<Node>& nodes, int k_max, int reps) {
  CompletionJob job;
  job.runtime_one = 1000;
  job.p = 0.999;
  std::vector<double> ms;
  int k_opt = 0;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    const KNodePlanner planner(nodes, job);
    k_opt = planner.optimum(k_max).k;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  report(what, ms, k_opt);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  Engine e = make_stream(2008, 0, Purpose::failures, "bench_k_node");
  auto log_uniform = [&](double lo, double hi) {
    return lo * std::exp(std::log(hi / lo) * uniform01(e));
  };
  std::vector<Node> expo, weib, general;
  for (int i = 0; i < 10000; ++i) {
    expo.push_back({dist::Dist::exponential(log_uniform(1e3, 1e5)), 0});
    weib.push_back({dist::Dist::weibull(0.7, log_uniform(1e4, 1e6)), 0});
    general.push_back({dist::Dist::weibull(0.5 + 0.5 * uniform01(e), log_uniform(1e4, 1e6)),
                       log_uniform(1, 1e4)});
  }
  time_optimum("(a) 10,000 exponential nodes, k = 1..10,000", expo, 10000, reps);
  time_optimum("(b) 10,000 Weibull nodes (one shape), k = 1..10,000", weib, 10000, reps);
  time_optimum("(c) 10,000 Weibull nodes (shapes, ages), k = 1..10,000", general, 10000, 3);

  const char* data = std::getenv("FAULTSWEEP_DATA");
  if (data == nullptr) {
    std::printf("(2) skipped: set FAULTSWEEP_DATA to time `fit` on the LANL log\n");
    return 0;
  }
  const std::filesystem::path log =
      std::filesystem::path(data) / "failures/lanl" / "LA-UR-05-7318-failure-data-1996-2005.csv.xz";
  const std::filesystem::path out = std::filesystem::temp_directory_path() / "bench_k_node_fit.h5";
  std::vector<double> wall, cpu;
  std::FILE* sink = std::fopen("/dev/null", "w");
  for (int r = 0; r < 3; ++r) {
    const double c0 = cpu_seconds();
    const auto t0 = Clock::now();
    run_fit(log, "lanl", out.string(), true, FitLogOptions{}, sink);
    wall.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    cpu.push_back(cpu_seconds() - c0);
  }
  std::fclose(sink);
  std::filesystem::remove(out);
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  std::printf(
      "(2) fit, all LANL systems + HDF5: wall %.2f s (%.2f..%.2f), CPU %.2f s (%.2f..%.2f)\n",
      wall[1], wall[0], wall[2], cpu[1], cpu[0], cpu[2]);
  return 0;
}
