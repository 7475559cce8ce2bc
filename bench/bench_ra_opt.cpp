// Speed of Gottumukkala's §6.4 techniques on the 10,000-node system of jobs/gottumukkala/
// ch6_raopt.toml: jobs per second (this thread's CPU time and wall clock) of one replica each of
// ALL, RR, RA, RAS and RA-Opt, and for the reliability-aware ones the share of the CPU time spent
// in the per-node MLE refits (reliability/online.hpp, every 1,000 min). No pass/fail. Usage:
// bench_ra_opt [failure trace csv] [jobs] [serial fraction] [cases] [repeats]
//   (default results/gottumukkala/ch6_trace_1.csv, made as ch6_raopt.toml says; 200 jobs; 0.105;
//   cases: a comma-separated list of RA-Opt, RA, RAS, RR, ALL, default all of them; repeats: runs
//   of each case, the median printed, default 1). The trace is read once before any case is
//   timed, as a sweep's rank reads it once for all its tasks. The runs go in rounds, one run of
//   each case per round; with RR among the cases, each other case's CPU rate over RR's in the
//   same round is printed too (median and range: the ratio to quote on a shared machine).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "faultsweep/core/memory.hpp"
#include "faultsweep/core/params.hpp"
#include "faultsweep/failures/factory.hpp"
#include "faultsweep/models/model.hpp"
#include "faultsweep/policy/allocator.hpp"
#include "faultsweep/policy/queue.hpp"
#include "faultsweep/policy/reliability_aware.hpp"
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/factory.hpp"

namespace {

using namespace faultsweep;
constexpr int kNodes = 10000;

double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  faultsweep::keep_freed_memory();  // as the faultsweep binary does
  const std::string trace = argc > 1 ? argv[1] : "results/gottumukkala/ch6_trace_1.csv";
  const std::int64_t jobs = argc > 2 ? std::atoll(argv[2]) : 200;
  // The workload of jobs/gottumukkala/ch6_raopt.toml: Amdahl p = 0.895 (Table 6.1); argv[3]
  // another serial fraction (0.01: the sensitivity study's p = 0.99).
  const double serial = argc > 3 ? std::atof(argv[3]) : 0.105;
  const std::string only = argc > 4 && *argv[4] ? "," + std::string(argv[4]) + "," : "";
  const int repeats = argc > 5 ? std::max(1, std::atoi(argv[5])) : 1;
  Params wt;
  wt.set("source", std::string("lublin"));
  wt.set("jobs", jobs);
  wt.set("moldable", 1.0);
  wt.set("speedup", std::string("amdahl"));
  wt.set("serial_fraction", serial);
  wt.set("inject_long_jobs", std::int64_t{10});
  wt.set("inject_long_runtime", 10 * 86400.0);
  wt.set("submit_all_at", 180 * 86400.0);
  models::RunContext ctx;
  ctx.master_seed = 2008;
  const workload::Workload w = workload::make_workload(wt, kNodes, ctx);
  Params ft;
  ft.set("process", std::string("trace"));
  ft.set("format", std::string("csv"));
  ft.set("file", trace);
  (void)failures::make_failure_source(ft, kNodes, 1e300, ctx);  // reads the trace, untimed
  std::printf(
      "bench_ra_opt: %zu jobs on %d nodes, failures %s, serial fraction %g, %d run(s) "
      "per case (medians)\n",
      w.jobs.size(), kNodes, trace.c_str(), serial, repeats);
  Params pp;
  pp.set("workload.speedup", std::string("amdahl"));
  pp.set("workload.serial_fraction", serial);
  struct Case {
    const char* name;
    const char* alloc;
    const char* size;
  };
  const Case cases[] = {{"RA-Opt", "ra", "ra_opt"},
                        {"RA", "ra", "max"},
                        {"RAS", "ras", "max"},
                        {"RR", "round_robin", "max"},
                        {"ALL", "first_fit", "all"}};
  constexpr std::size_t kCases = std::size(cases);
  struct Run {
    double cpu_s, wall_s, refit_share;
    std::int64_t refits;
    sim::Metrics m;
  };
  std::vector<Run> done[kCases];
  const auto selected = [&](std::size_t c) {
    return only.empty() || only.find("," + std::string(cases[c].name) + ",") != std::string::npos;
  };
  for (int r = 0; r < repeats; ++r) {
    for (std::size_t c = 0; c < kCases; ++c) {
      if (!selected(c)) continue;
      Params p = pp;
      p.set("allocator", std::string(cases[c].alloc));
      p.set("moldable_size", std::string(cases[c].size));
      p.set("moldable_min_fraction", 0.5);
      const auto alloc = policy::make_point_allocator(p);
      const auto sizes = policy::make_point_size_chooser(p);
      const double c0 = cpu_s();
      const auto w0 = std::chrono::steady_clock::now();
      sim::SimConfig cfg;
      cfg.nodes = kNodes;
      cfg.speedup = w.speedup;
      auto source = failures::make_failure_source(ft, kNodes, 1e300, ctx);
      auto queue = policy::make_queue_policy("fcfs");
      sim::Simulation s(cfg, w.jobs, *source, *queue, *alloc, sizes.get());
      Run run{};
      run.m = s.run();
      run.cpu_s = cpu_s() - c0;
      run.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
      double refit_s = 0;
      if (const auto* a = dynamic_cast<const policy::ReliabilityAllocator*>(alloc.get()))
        refit_s += a->model().refit_seconds(), run.refits += a->model().refits();
      if (const auto* z = dynamic_cast<const policy::RaOptSize*>(sizes.get()))
        refit_s += z->model().refit_seconds(), run.refits += z->model().refits();
      run.refit_share = refit_s / run.cpu_s;
      done[c].push_back(run);
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  const auto n_jobs = static_cast<double>(w.jobs.size());
  for (std::size_t c = 0; c < kCases; ++c) {
    if (done[c].empty()) continue;
    std::vector<double> cpus, walls, refit_shares;
    for (const Run& run : done[c])
      cpus.push_back(run.cpu_s), walls.push_back(run.wall_s),
          refit_shares.push_back(run.refit_share);
    const double cpu = median(cpus), wall = median(walls), refit_share = median(refit_shares);
    const Run& last = done[c].back();
    std::printf(
        "  %-7s %8.2f jobs/s CPU (%.1f s), wall %8.2f jobs/s; %lld events, %lld failures, "
        "refits %lld taking %.1f %% of CPU; mean size %.0f\n",
        cases[c].name, n_jobs / cpu, cpu, n_jobs / wall, static_cast<long long>(last.m.events),
        static_cast<long long>(last.m.failures), static_cast<long long>(last.refits),
        100 * refit_share, last.m.waste.mean_size);
  }
  std::size_t rr = 0;  // round robin's index
  while (std::string(cases[rr].name) != "RR") ++rr;
  for (std::size_t c = 0; c < kCases; ++c) {
    if (c == rr || done[c].empty() || done[rr].empty()) continue;
    std::vector<double> ratio;  // CPU rates: (jobs / cpu) over RR's (jobs / its cpu)
    for (std::size_t r = 0; r < done[c].size(); ++r)
      ratio.push_back(done[rr][r].cpu_s / done[c][r].cpu_s);
    std::printf("  %s / RR, CPU rates in the same round: median %.4f (%.4f..%.4f, %zu rounds)\n",
                cases[c].name, median(ratio), *std::min_element(ratio.begin(), ratio.end()),
                *std::max_element(ratio.begin(), ratio.end()), ratio.size());
  }
  return 0;
}
