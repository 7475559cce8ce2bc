#pragma once
// Shared by the benchmarks: this thread's CPU clock, and a paired A/B run of one model (two
// points in turn on the same replicas: same jobs and failures), as bench_fars and bench_lff use.
#include <algorithm>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

#include "faultsweep/core/params.hpp"
#include "faultsweep/models/model.hpp"

namespace faultsweep::bench {

inline double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

struct PairedRuns {
  std::vector<double> rate_a, rate_b;  // the "jobs" metric per second of CPU, sorted
  double jobs = 0;                     // the "jobs" metric of the last run
  double b_sum = 0;                    // the sum of `b_metric` over b's runs
};

// Validates a and b, then runs them in turn on replicas 0 .. reps - 1 of `seed`.
inline PairedRuns paired_runs(const models::Model& model, const Params& a, const Params& b,
                              std::uint64_t seed, int reps, const std::string& b_metric) {
  model.validate(a, ".");
  model.validate(b, ".");
  const auto& specs = model.metrics();
  std::vector<double> out(specs.size());
  PairedRuns r;
  for (int k = 0; k < reps; ++k)
    for (const bool is_b : {false, true}) {
      models::RunContext ctx;
      ctx.master_seed = seed;
      ctx.replica = static_cast<std::uint64_t>(k);
      const double c0 = thread_cpu_s();
      model.run(is_b ? b : a, ctx, out);
      const double dt = thread_cpu_s() - c0;
      for (std::size_t i = 0; i < specs.size(); ++i) {
        if (specs[i].name == "jobs") r.jobs = out[i];
        if (is_b && specs[i].name == b_metric) r.b_sum += out[i];
      }
      (is_b ? r.rate_b : r.rate_a).push_back(r.jobs / dt);
    }
  std::sort(r.rate_a.begin(), r.rate_a.end());
  std::sort(r.rate_b.begin(), r.rate_b.end());
  return r;
}

}  // namespace faultsweep::bench
