// Throughput of the checkpointing-system Monte Carlo (avail/checkpoint_sim), in processor events
// (failures + repairs) per second on one core, on Plank & Thomason's LOW environment (N = 32,
// MTTF 70 min, MTTR 75 min) where events are densest relative to phase changes. For comparison,
// a baseline loop that does only what any such simulation must: one exponential draw per event
// and selection of the next event among 32 processors by a linear scan; and the floors, the draws
// alone: one exponential per event by inversion (pcg64 + log) or by the ziggurat
// (core/ziggurat.hpp), and the two draws an event of the superposition sampler makes (a
// ziggurat exponential and a 53-bit uniform pick, from two streams).
//
// Each case runs 5 times for ~0.5 s; prints the median (and min..max) in M events/s, and at the
// end each simulation's median as a fraction of each floor's median of the same run. No
// pass/fail.
// Rates are per second of this thread's CPU time, so that other processes competing for the core
// (a shared build machine) do not show up as a slower simulator; the wall-clock rate of the median
// run is printed beside it (equal on an idle machine).
// Both samplers run: per processor (any laws) and superposition (exponential laws), the latter
// with both ways of drawing its exponential times.
// Usage: bench_checkpoint_sim [seconds per run, default 0.5]
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/rng.hpp"
#include "faultsweep/core/ziggurat.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace {

using faultsweep::Engine;
using faultsweep::kMinute_s;
using Clock = std::chrono::steady_clock;

constexpr double kMttf_s = 70 * kMinute_s, kMttr_s = 75 * kMinute_s;
constexpr int kRuns = 5;

// Baseline: N processors alternate exponential up and down times; the next event is found by a
// linear scan. Returns the number of events; the checksum keeps the work observable.
std::uint64_t baseline(int n, double horizon_s, std::uint64_t seed, double& checksum) {
  Engine e(seed);
  std::array<double, 64> next{};
  std::array<bool, 64> up{};
  const faultsweep::dist::Dist fail = faultsweep::dist::Dist::exponential(kMttf_s);
  const faultsweep::dist::Dist rep = faultsweep::dist::Dist::exponential(kMttr_s);
  for (int i = 0; i < n; ++i) next[i] = fail.sample(e), up[i] = true;
  std::uint64_t events = 0;
  double sum = 0;
  for (;;) {
    int k = 0;
    for (int i = 1; i < n; ++i) k = next[i] < next[k] ? i : k;
    const double t = next[k];
    if (t > horizon_s) break;
    ++events;
    up[k] = !up[k];
    next[k] = t + (up[k] ? fail.sample(e) : rep.sample(e));
    sum += static_cast<double>(up[k]);
  }
  checksum += sum;
  return events;
}

// Floor: the draws alone (pcg64 + log per event), no selection and no bookkeeping. The horizon
// is converted to the same expected number of events as the N = 32 LOW system.
std::uint64_t draws_only(double horizon_s, std::uint64_t seed, double& checksum) {
  Engine e(seed);
  const faultsweep::dist::Dist fail = faultsweep::dist::Dist::exponential(kMttf_s);
  const auto n = static_cast<std::uint64_t>(2.0 * 32 * horizon_s / (kMttf_s + kMttr_s));
  double sum = 0;
  for (std::uint64_t k = 0; k < n; ++k) sum += fail.sample(e);
  checksum += sum;
  return n;
}

// The same with the ziggurat's draws (mean 1, scaled as the sampler scales them).
std::uint64_t ziggurat_draws_only(double horizon_s, std::uint64_t seed, double& checksum) {
  Engine e(seed);
  const faultsweep::ExpZiggurat exp1;
  const auto n = static_cast<std::uint64_t>(2.0 * 32 * horizon_s / (kMttf_s + kMttr_s));
  double sum = 0;
  for (std::uint64_t k = 0; k < n; ++k) sum += exp1(e) * kMttf_s;
  checksum += sum;
  return n;
}

// The draws the superposition sampler with the ziggurat makes per event, alone: one exponential
// from one stream and one 53-bit pick from another, made as the sampler makes them (engines
// copied to locals, the ziggurat's out-of-line part outside the loop that holds no call).
[[gnu::noinline]] double superposed_draws(std::uint64_t n, Engine& e_in, Engine& picks_in) {
  static const faultsweep::ExpZiggurat exp1;
  Engine e = e_in, picks = picks_in;
  double sum = 0;
  std::uint64_t bits = 0;
  for (std::uint64_t k = 0; k < n;) {
    double x;
    std::uint64_t b = 0;
    for (; k < n; ++k) {
      b = e();
      if (!exp1.first(b, x)) break;
      sum += x * kMttf_s;
      bits += picks() >> 11;
    }
    if (k == n) break;
    sum += exp1.rest(e, b) * kMttf_s;
    bits += picks() >> 11;
    ++k;
  }
  e_in = e, picks_in = picks;
  return sum + static_cast<double>(bits & 0xff);
}

std::uint64_t superposed_draws_only(double horizon_s, std::uint64_t seed, double& checksum) {
  Engine e(seed), picks(seed + 1);
  const auto n = static_cast<std::uint64_t>(2.0 * 32 * horizon_s / (kMttf_s + kMttr_s));
  checksum += superposed_draws(n, e, picks);
  return n;
}

struct Case {
  std::string name;
  bool is_sim;
  std::function<std::uint64_t(double horizon_s, std::uint64_t seed, double& checksum)> run;
};

Case sim_case(std::string name, faultsweep::avail::Sampler sampler,
              faultsweep::avail::ExpDraws draws, int a, double I, double C, double L, double R) {
  faultsweep::avail::SimConfig cfg;
  cfg.sampler = sampler;
  cfg.exp_draws = draws;
  cfg.N = 32;
  cfg.a = a;
  cfg.I_s = I, cfg.C_s = C, cfg.L_s = L, cfg.R_s = R;
  cfg.failure = faultsweep::dist::Dist::exponential(kMttf_s);
  cfg.repair = faultsweep::dist::Dist::exponential(kMttr_s);
  return {std::move(name), true,
          [cfg](double horizon_s, std::uint64_t seed, double& checksum) mutable {
            cfg.horizon_s = horizon_s;
            Engine f(seed, 1), r(seed, 2);
            const auto res = faultsweep::avail::simulate_checkpointing(cfg, f, r);
            checksum += res.useful_s;
            return res.events;
          }};
}

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

int main(int argc, char** argv) {
  const double target_s = argc > 1 ? std::atof(argv[1]) : 0.5;
  // EP on LOW (Plank & Thomason Tables 2-4): CS_a = 1.7 a MB, C = CS_a / 1 MB/s,
  // L = R = CS_a / 0.2 MB/s; a = 9 and I = 130 s are the paper's optimum (Table 4).
  std::vector<Case> cases;
  // Both samplers (avail/checkpoint_sim.hpp): per processor, and superposition (the model's
  // default for exponential laws).
  using faultsweep::avail::ExpDraws;
  using faultsweep::avail::Sampler;
  struct Kind {
    Sampler s;
    ExpDraws d;
    const char* tag;
  };
  for (const Kind k : {Kind{Sampler::per_processor, ExpDraws::inversion, "per-proc.      "},
                       Kind{Sampler::superposition, ExpDraws::inversion, "superpos. log  "},
                       Kind{Sampler::superposition, ExpDraws::ziggurat, "superpos. zigg."}}) {
    const std::string tag = k.tag;
    cases.push_back(sim_case(tag + " LOW EP a=9  I=130s", k.s, k.d, 9, 130, 15.3, 76.5, 76.5));
    cases.push_back(sim_case(tag + " LOW EP a=1  I=60s ", k.s, k.d, 1, 60, 1.7, 8.5, 8.5));
    cases.push_back(sim_case(tag + " LOW EP a=32 I=400s", k.s, k.d, 32, 400, 54.4, 272, 272));
  }
  const std::size_t floor_case = cases.size();
  cases.push_back({"floor: exp draws only (pcg64 + log)", false, draws_only});
  cases.push_back({"floor: exp draws only (pcg64 + ziggurat)", false, ziggurat_draws_only});
  cases.push_back({"floor: ziggurat exp + 53-bit pick (superpos.)", false, superposed_draws_only});
  cases.push_back(
      {"baseline: exp draw + linear scan (N=32)", false,
       [](double h, std::uint64_t seed, double& cs) { return baseline(32, h, seed, cs); }});

  std::printf("checkpoint_sim throughput, one core, %d runs of ~%.2g s per case\n", kRuns,
              target_s);
  std::printf("%-42s %12s %10s %18s %8s\n", "case", "events/run", "median", "min..max (M ev/s)",
              "wall");
  double checksum = 0;
  std::vector<double> medians;
  for (const Case& c : cases) {
    // Calibrate the horizon so that one run takes about target_s of CPU time.
    double horizon_s = 100 * faultsweep::kDay_s;
    for (;;) {
      const double c0 = thread_cpu_s();
      c.run(horizon_s, 12345, checksum);
      const double s = thread_cpu_s() - c0;
      if (s > 0.05) {
        horizon_s *= target_s / s;
        break;
      }
      horizon_s *= 4;
    }
    struct Run {
      double cpu_rate, wall_rate;
    };
    std::vector<Run> runs;
    std::uint64_t events = 0;
    for (int k = 0; k < kRuns; ++k) {
      const auto t0 = Clock::now();
      const double c0 = thread_cpu_s();
      events = c.run(horizon_s, 1000 + static_cast<std::uint64_t>(k), checksum);
      const double cpu = thread_cpu_s() - c0, wall = seconds_since(t0);
      runs.push_back(
          {static_cast<double>(events) / cpu / 1e6, static_cast<double>(events) / wall / 1e6});
    }
    std::sort(runs.begin(), runs.end(),
              [](const Run& x, const Run& y) { return x.cpu_rate < y.cpu_rate; });
    std::printf("%-42s %12llu %10.2f %8.2f..%-8.2f %8.2f\n", c.name.c_str(),
                static_cast<unsigned long long>(events), runs[kRuns / 2].cpu_rate,
                runs.front().cpu_rate, runs.back().cpu_rate, runs[kRuns / 2].wall_rate);
    medians.push_back(runs[kRuns / 2].cpu_rate);
  }
  const char* floors[] = {"log", "ziggurat", "ziggurat + pick"};
  for (const std::size_t floor : {floor_case, floor_case + 1, floor_case + 2}) {
    std::printf("sim / %s floor (medians of this run):", floors[floor - floor_case]);
    for (std::size_t k = 0; k < cases.size(); ++k)
      if (cases[k].is_sim) std::printf(" %.2f", medians[k] / medians[floor]);
    std::printf("\n");
  }
  std::printf("(checksum %.6g)\n", checksum);
  return 0;
}
