#include "faultsweep/workload/generators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "faultsweep/core/error.hpp"
#include "faultsweep/dist/log_uniform.hpp"
#include "faultsweep/dist/mixtures.hpp"

namespace faultsweep::workload {
namespace {

void check_common(std::int64_t jobs, int nodes, double mean_interarrival_s,
                  double estimate_factor) {
  if (jobs < 1) throw InputError("jobs", std::to_string(jobs), "an integer >= 1");
  if (nodes < 1) throw InputError("nodes", std::to_string(nodes), "an integer >= 1");
  if (!(mean_interarrival_s > 0) || !std::isfinite(mean_interarrival_s))
    throw InputError("mean_interarrival", fmt::format("{}", mean_interarrival_s), "a duration > 0");
  if (!(estimate_factor >= 1) || !std::isfinite(estimate_factor))
    throw InputError("estimate_factor", fmt::format("{}", estimate_factor),
                     "a number >= 1 (estimates never below the run time)");
}

double exp_draw(Engine& e, double mean) {
  return -mean * std::log(uniform01(e));
}

// Draws that would round to a zero run time (possible only for absurd parameters) are floored
// at one microsecond so that every job has runtime > 0.
double positive(double runtime_s) {
  return std::max(runtime_s, 1e-6);
}

// Shared skeleton: Poisson arrivals from `arrivals`, first job at time 0.
template <class RuntimeFn, class SizeFn>
Workload generate(std::int64_t n, int nodes, double mean_gap_s, double estimate_factor,
                  Engine& arrivals, RuntimeFn runtime, SizeFn size) {
  Workload w;
  w.machine_nodes = nodes;
  w.jobs.resize(static_cast<std::size_t>(n));
  double t = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    Job& j = w.jobs[static_cast<std::size_t>(i)];
    if (i > 0) t += exp_draw(arrivals, mean_gap_s);
    j.id = i + 1;
    j.submit_s = t;
    j.runtime_s = positive(runtime());
    j.estimate_s = j.runtime_s * estimate_factor;
    j.size = size();
  }
  w.stats.lines = n;
  w.stats.jobs = n;
  return w;
}

// Lublin & Feitelson (JPDC 2003) §4.2 rigid sizes; see LublinSizeParams.
class LublinSizes {
 public:
  LublinSizes(const LublinSizeParams& p, int nodes)
      : serial_(p.serial_prob), pow2_(p.pow2_prob), nodes_(nodes), dist_(make(p, nodes)) {
    if (!(serial_ >= 0 && serial_ <= 1))
      throw InputError("serial_prob", fmt::format("{}", serial_), "a probability in [0, 1]");
    if (!(pow2_ >= 0 && pow2_ <= 1))
      throw InputError("pow2_prob", fmt::format("{}", pow2_), "a probability in [0, 1]");
    largest_pow2_ = std::exp2(std::floor(std::log2(static_cast<double>(nodes))));
  }
  std::int32_t operator()(Engine& e) const {
    if (uniform01(e) < serial_ || !dist_) return 1;
    const double u = dist_->sample_log2(e);
    double x;
    if (uniform01(e) < pow2_) {
      // 2^round(u) can exceed a machine whose size is not a power of two (384 nodes: u near
      // 8.58 rounds to 9); such jobs take the largest power of two that fits.
      x = std::min(dist::TwoStageLogUniform::round_power_of_two(u), largest_pow2_);
    } else {
      x = dist::TwoStageLogUniform::round_integer(u);  // <= round(2^hi) <= nodes
    }
    return static_cast<std::int32_t>(std::clamp(x, 1.0, static_cast<double>(nodes_)));
  }

 private:
  static std::optional<dist::TwoStageLogUniform> make(const LublinSizeParams& p, int nodes) {
    const double max_log2 = std::log2(static_cast<double>(nodes));
    const double hi = std::isnan(p.hi_log2) ? max_log2 : p.hi_log2;
    if (hi > max_log2 + 1e-12)
      throw InputError("size_hi_log2", fmt::format("{}", hi),
                       fmt::format("at most log2(nodes) = {}", max_log2));
    // A machine too small for the model's smallest parallel job (1 node with the default
    // lo = 0.8): every job is serial.
    if (std::isnan(p.hi_log2) && hi <= p.lo_log2) return std::nullopt;
    double mid = p.mid_log2, p_low = p.p_low;
    if (std::isnan(mid)) {
      mid = hi - 2.5;                                    // Lublin & Feitelson: umed = uhi - 2.5
      if (mid <= p.lo_log2) mid = p.lo_log2, p_low = 0;  // small machines: one stage
    }
    try {
      return dist::TwoStageLogUniform(p.lo_log2, mid, hi, p_low);
    } catch (const InputError& e) {  // name the factory's keys
      const std::string key = e.key() == "p" ? "size_p_low" : "size_" + e.key() + "_log2";
      throw InputError(key, e.value(), e.expected());
    }
  }
  double serial_, pow2_, largest_pow2_ = 1;
  int nodes_;
  std::optional<dist::TwoStageLogUniform> dist_;
};

}  // namespace

Workload generate_fars(const FarsParams& p, int nodes, Engine& arrivals, Engine& runtimes,
                       Engine& sizes) {
  check_common(p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor);
  if (!(p.mean_runtime_s > 0) || !std::isfinite(p.mean_runtime_s))
    throw InputError("mean_runtime", fmt::format("{}", p.mean_runtime_s), "a duration > 0");
  if (!(p.mean_size > 0) || !(p.mean_size <= nodes))
    throw InputError("mean_size", fmt::format("{}", p.mean_size),
                     fmt::format("a number in (0, nodes = {}]", nodes));
  // FARS §5.2.1: exponential gaps, run times and (discretised, truncated) sizes.
  return generate(
      p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor, arrivals,
      [&] { return exp_draw(runtimes, p.mean_runtime_s); },
      [&] {
        for (;;) {
          const double x = std::ceil(exp_draw(sizes, p.mean_size));
          if (x <= nodes) return static_cast<std::int32_t>(std::max(1.0, x));
        }
      });
}

Workload generate_lublin(const LublinParams& p, int nodes, Engine& arrivals, Engine& runtimes,
                         Engine& sizes) {
  check_common(p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor);
  if (!(p.runtime_p1 >= 0 && p.runtime_p1 <= 1))
    throw InputError("runtime_p1", fmt::format("{}", p.runtime_p1), "a probability in [0, 1]");
  // Gottumukkala §6.4.4: two-stage hyperexponential run lengths.
  dist::HyperExponential rt = [&] {
    try {
      return dist::HyperExponential({p.runtime_p1, 1 - p.runtime_p1},
                                    {p.runtime_mean1_s, p.runtime_mean2_s});
    } catch (const InputError& e) {
      throw InputError("runtime_mean1 / runtime_mean2", e.value(), e.expected());
    }
  }();
  const LublinSizes sz(p.size, nodes);
  return generate(
      p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor, arrivals,
      [&] { return rt.sample(runtimes); }, [&] { return sz(sizes); });
}

Workload generate_zhang(const ZhangParams& p, int nodes, Engine& arrivals, Engine& runtimes,
                        Engine& sizes) {
  check_common(p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor);
  // Zhang et al. §3.1: hyper-Erlang of common order run times (Jann et al. 1997).
  dist::HyperErlang rt = [&] {
    try {
      return dist::HyperErlang::from_means(p.runtime_order, p.runtime_probs, p.runtime_means_s);
    } catch (const InputError& e) {
      throw InputError("runtime_" + e.key(), e.value(), e.expected());
    }
  }();
  const LublinSizes sz(p.size, nodes);
  return generate(
      p.jobs, nodes, p.mean_interarrival_s, p.estimate_factor, arrivals,
      [&] { return rt.sample(runtimes); }, [&] { return sz(sizes); });
}

}  // namespace faultsweep::workload
