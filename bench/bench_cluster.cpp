// Throughput of the cluster simulator (sim/engine), in simulated jobs per second on one core:
// all of SDSC-SP2 (59,715 jobs after cleaning, 128 nodes; $FAULTSWEEP_DATA/workloads/
// SDSC-SP2-1998-4.2-cln.swf.gz) replayed with FCFS + EASY backfilling and per-node Weibull
// failures (shape 0.7, scale 30 d, 1 h down), no checkpoints, failed jobs requeued at the head;
// beside it FCFS, EASY without failures, EASY with Young checkpointing, and conservative
// backfilling without failures. Conservative backfilling with the same failures runs only when
// asked for by --only: the SDSC queue then grows to thousands of jobs, and every failure
// replans them all (~12,000 jobs/s, 5 s a run).
//
// The trace is parsed once (the workload factory caches it) outside the timed region; each
// timed run builds the failure source, the policies and the Simulation and runs it to the end,
// including the end-of-run invariant checks. Each case runs 5 times; prints the median (and
// min..max) in jobs per second of this thread's CPU time, the wall-clock rate beside it, and
// events per job. The runs go in rounds, one run of each case per round, so that a case and
// the one it is compared with meet the same load of a shared machine. No pass/fail.
// Usage: bench_cluster [--only TEXT] [--runs N] [--ratios] [path to the SWF file]
//   --only TEXT  run only the cases whose name contains TEXT (e.g. "conservative")
//   --runs N     rounds (default 5)
//   --ratios     also run each selected conservative case's EASY counterpart (the same
//                failures) and print, per round, conservative's CPU rate over EASY's: their
//                median and range (what a comparison of the two should quote on a noisy host)
//   path         default $FAULTSWEEP_DATA/workloads/SDSC-SP2-1998-4.2-cln.swf.gz
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
#include "faultsweep/sim/engine.hpp"
#include "faultsweep/workload/factory.hpp"

namespace {

using namespace faultsweep;
constexpr int kNodes = 128;

double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct Case {
  const char* name;
  const char* queue;
  bool failures;
  sim::CheckpointMode checkpoint;
  bool on_request = false;  // only with --only (slow)
  int vs = -1;              // --ratios: the index of the case it is compared with
};

struct Run {
  double cpu_rate = 0, wall_rate = 0, events_per_job = 0, failures = 0, response_s = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  faultsweep::keep_freed_memory();  // as the faultsweep binary does
  std::string path, only;
  int runs = 5;
  bool ratios = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--only" && a + 1 < argc) {
      only = argv[++a];
    } else if (arg == "--runs" && a + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++a]));
    } else if (arg == "--ratios") {
      ratios = true;
    } else if (arg.rfind("--", 0) == 0) {
      std::fprintf(stderr, "usage: bench_cluster [--only TEXT] [--runs N] [--ratios] [swf file]\n");
      return 2;
    } else {
      path = arg;
    }
  }
  if (path.empty()) {
    const char* data = std::getenv("FAULTSWEEP_DATA");
    path =
        std::string(data ? data : "/work/shared/data") + "/workloads/SDSC-SP2-1998-4.2-cln.swf.gz";
  }
  Params wt;
  wt.set("source", std::string("swf"));
  wt.set("file", path);
  models::RunContext ctx;
  ctx.master_seed = 1;
  const auto t0 = std::chrono::steady_clock::now();
  const workload::Workload w = workload::make_workload(wt, kNodes, ctx);
  const double parse_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("bench_cluster: %s\n  %zu jobs on %d nodes (parsed in %.2f s, not timed)\n",
              path.c_str(), w.jobs.size(), kNodes, parse_s);

  Params ft;
  ft.set("process", std::string("renewal"));
  ft.set("dist", std::string("weibull"));
  ft.set("shape", 0.7);
  ft.set("scale", 30 * 86400.0);
  ft.set("downtime", 3600.0);
  Params none;
  none.set("process", std::string("none"));

  const Case cases[] = {
      {"easy + Weibull failures", "easy", true, sim::CheckpointMode::none},
      {"fcfs + Weibull failures", "fcfs", true, sim::CheckpointMode::none},
      {"easy, no failures", "easy", false, sim::CheckpointMode::none},
      {"easy + failures + Young", "easy", true, sim::CheckpointMode::young},
      {"conservative, no failures", "conservative", false, sim::CheckpointMode::none, false, 2},
      {"conservative + Weibull", "conservative", true, sim::CheckpointMode::none, true, 0},
  };
  constexpr std::size_t kCases = std::size(cases);
  bool selected[kCases] = {};
  for (std::size_t c = 0; c < kCases; ++c)
    selected[c] = std::string(cases[c].name).find(only) != std::string::npos &&
                  !(cases[c].on_request && only.empty());
  if (ratios)
    for (std::size_t c = 0; c < kCases; ++c)
      if (selected[c] && cases[c].vs >= 0) selected[cases[c].vs] = true;
  const auto run_once = [&](const Case& c) {
    const double c0 = cpu_s();
    const auto w0 = std::chrono::steady_clock::now();
    sim::SimConfig cfg;
    cfg.nodes = kNodes;
    cfg.checkpoint = c.checkpoint;
    cfg.checkpoint_cost_s = 300;
    cfg.node_mtbf_s = 30 * 86400.0 * 1.2658;  // Weibull(0.7, 30 d) mean
    cfg.failure_stop_s = 1e12;
    auto source = failures::make_failure_source(c.failures ? ft : none, kNodes, 1e12, ctx);
    auto queue = policy::make_queue_policy(c.queue);
    policy::FirstFit alloc;
    sim::Simulation s(cfg, w.jobs, *source, *queue, alloc);
    const sim::Metrics m = s.run();
    const double cpu = cpu_s() - c0;
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    const auto n = static_cast<double>(w.jobs.size());
    return Run{n / cpu, n / wall, static_cast<double>(m.events) / n,
               static_cast<double>(m.failures), m.mean_response_s};
  };
  std::vector<Run> done[kCases];
  for (int r = 0; r < runs; ++r)
    for (std::size_t c = 0; c < kCases; ++c)
      if (selected[c]) done[c].push_back(run_once(cases[c]));
  double checksum = 0;
  for (std::size_t c = 0; c < kCases; ++c) {
    if (!selected[c]) continue;
    std::vector<double> cpu_rates;
    for (const Run& run : done[c]) cpu_rates.push_back(run.cpu_rate), checksum += run.response_s;
    const double mid = median(cpu_rates);
    const Run& at = done[c][static_cast<std::size_t>(
        std::find(cpu_rates.begin(), cpu_rates.end(), mid) - cpu_rates.begin())];
    std::printf(
        "  %-26s %8.0f jobs/s CPU (%.0f..%.0f), wall %8.0f; %.2f events/job, %.0f failures\n",
        cases[c].name, mid, *std::min_element(cpu_rates.begin(), cpu_rates.end()),
        *std::max_element(cpu_rates.begin(), cpu_rates.end()), at.wall_rate, at.events_per_job,
        at.failures);
  }
  for (std::size_t c = 0; c < kCases; ++c) {
    if (!ratios || !selected[c] || cases[c].vs < 0) continue;
    const auto& ref = done[static_cast<std::size_t>(cases[c].vs)];
    std::vector<double> per_round;
    for (std::size_t r = 0; r < done[c].size(); ++r)
      per_round.push_back(done[c][r].cpu_rate / ref[r].cpu_rate);
    std::printf("  %s / %s, CPU rates in the same round: median %.3f (%.3f..%.3f, %zu rounds)\n",
                cases[c].name, cases[static_cast<std::size_t>(cases[c].vs)].name, median(per_round),
                *std::min_element(per_round.begin(), per_round.end()),
                *std::max_element(per_round.begin(), per_round.end()), per_round.size());
  }
  std::printf("  (checksum %.6g)\n", checksum);
  return 0;
}
