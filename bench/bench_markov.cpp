// Time to compute all of Plank & Thomason's Table 4 with the availability chain M: 9 cases
// (BT, LU, EP x HIGH, MEDIUM, LOW) x a = 1..32, each with its optimal I >= L_a, and the overall
// (a, I) minimising RT_a / A per case. Inputs are read once from inputs/plank/ (not timed).
// Repeats the whole table 20 times; prints the median (min..max) seconds per table, the number
// of A evaluations per table, and, for scale, the cost of one full-chain evaluation (all N+S+1
// states, GTH) at each case's optimum. No pass/fail; the target is <= 0.1 s per table.
// Usage: bench_markov [repetitions, default 20] [inputs folder, default inputs/plank]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/avail/plank_inputs.hpp"
#include "faultsweep/core/duration.hpp"

namespace {

using namespace faultsweep::avail;
using Clock = std::chrono::steady_clock;

struct Best {
  int a = 0;
  double I_s = 0, availability = 0, score = INFINITY;
};

// One case: all a, interval optimum for each, overall optimum. Adds to *evaluations.
Best table4_case(const PlankApp& app, const PlankEnv& env, long* evaluations) {
  Best best;
  for (int a = 1; a <= env.N; ++a) {
    const double CS = app.checkpoint_MB(a);
    const double C = CS / env.C_rate_MBps, L = CS / env.L_rate_MBps, R = CS / env.R_rate_MBps;
    const ChainCore core(env.N, a, 1 / env.mttf_s, 1 / env.mttr_s);
    const IntervalOptimum o = core.optimize_interval(C, L, R, L);
    *evaluations += o.evaluations;
    const double score = std::log(app.runtime_s(a)) - core.log_availability(o.I_s, C, L, R);
    if (score < best.score) best = {a, o.I_s, o.availability, score};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  const std::filesystem::path dir = argc > 2 ? argv[2] : "inputs/plank";
  const auto apps = load_plank_apps(dir / "apps.toml");
  const auto envs = load_plank_envs(dir / "environments.toml");

  std::vector<double> seconds;
  long evaluations = 0;
  std::vector<Best> results;
  for (int r = 0; r < reps; ++r) {
    evaluations = 0;
    results.clear();
    const auto t0 = Clock::now();
    for (const auto& app : apps)
      for (const auto& env : envs) results.push_back(table4_case(app, env, &evaluations));
    seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(seconds.begin(), seconds.end());
  std::printf("Table 4 (%zu cases x a = 1..32, optimal I each, overall optimum), %d repetitions\n",
              results.size(), reps);
  std::printf("  median %.3g s per table (min %.3g, max %.3g); %ld A evaluations per table\n",
              seconds[seconds.size() / 2], seconds.front(), seconds.back(), evaluations);

  // For scale: one full-chain evaluation (evaluate_chain) at each case's optimum.
  std::vector<double> full;
  std::size_t i = 0;
  for (const auto& app : apps)
    for (const auto& env : envs) {
      const Best& b = results[i++];
      const double CS = app.checkpoint_MB(b.a);
      ChainParams p;
      p.N = env.N;
      p.a = b.a;
      p.I_s = b.I_s;
      p.C_s = CS / env.C_rate_MBps;
      p.L_s = CS / env.L_rate_MBps;
      p.R_s = CS / env.R_rate_MBps;
      p.lambda_per_s = 1 / env.mttf_s;
      p.theta_per_s = 1 / env.mttr_s;
      const auto t0 = Clock::now();
      const ChainResult c = evaluate_chain(p);
      full.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
      std::printf("  %-3s %-6s a_opt %2d  I_opt %8.4g h  A %.4g  RT/A %.5g h\n", app.name.c_str(),
                  env.name.c_str(), b.a, b.I_s / faultsweep::kHour_s, c.availability,
                  std::exp(b.score) / faultsweep::kHour_s);
    }
  std::sort(full.begin(), full.end());
  std::printf("  full chain (all states, GTH) at the optima: median %.3g s per evaluation\n",
              full[full.size() / 2]);
  return 0;
}
