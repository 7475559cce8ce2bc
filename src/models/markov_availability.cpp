#include "faultsweep/models/markov_availability.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/avail/plank_system.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/metric_sink.hpp"

namespace faultsweep::models {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string mode_of(const Params& p) {
  return p.has("mode") ? p.str("mode") : "optimize";
}

// The metrics of one (a, I): RT_a / A in log space, so that A far below 1e-300 still ranks.
struct Outcome {
  int a = 0;
  double I_s = 0;
  double availability = 0;
  double log_availability = 0;
  double down_fraction = 0;
  double runtime_s = kNaN;
};

Outcome optimize_for(const avail::PlankSystem& sys, int a) {
  const avail::ChainCore core(sys.N, a, 1.0 / sys.mttf_s, 1.0 / sys.mttr_s);
  const avail::IntervalOptimum opt = core.optimize_interval(sys.C_s, sys.L_s, sys.R_s, sys.L_s);
  const avail::ChainResult r = core.evaluate(opt.I_s, sys.C_s, sys.L_s, sys.R_s);
  Outcome o;
  o.a = a;
  o.I_s = opt.I_s;
  o.availability = r.availability;
  o.log_availability = core.log_availability(opt.I_s, sys.C_s, sys.L_s, sys.R_s);
  o.down_fraction = r.down_fraction;
  o.runtime_s = sys.runtime_s;
  return o;
}

}  // namespace

MarkovAvailability::MarkovAvailability() {
  params_ = avail::plank_system_param_specs();
  ParamSpec mode;
  mode.name = "mode";
  mode.kind = ParamKind::string;
  mode.default_value = Value(std::string("optimize"));
  mode.choices = {"evaluate", "optimize_interval", "optimize"};
  mode.help = "evaluate A(a, I); optimise I for a; or optimise (a, I) (minimum RT_a / A)";
  params_.push_back(mode);
  ParamSpec a;
  a.name = "a";
  a.kind = ParamKind::integer;
  a.min = 1;
  a.optional = true;
  a.help = "active processors, 1..N (required for evaluate and optimize_interval)";
  params_.push_back(a);
  ParamSpec I;
  I.name = "I";
  I.kind = ParamKind::duration;
  I.unit = "s";
  I.min = 0;
  I.optional = true;
  I.help = "checkpoint interval, >= L (required for evaluate)";
  params_.push_back(I);

  metrics_ = {
      {"a_opt", "1", "active processors: the given a, or the optimum"},
      {"I_opt_h", "h", "checkpoint interval: the given I, or the optimum for a_opt"},
      {"availability", "1", "A(a_opt, I_opt), Plank & Thomason Eq. 5"},
      {"runtime_h", "h", "failure-free running time RT_a (Eq. 6); NaN without an app"},
      {"expected_runtime_h", "h", "expected running time RT_a / A; NaN without an app"},
      {"down_fraction", "1", "long-run fraction of time in System Down (fewer than a up)"},
  };
}

std::string MarkovAvailability::description() const {
  return "Plank & Thomason's availability Markov chain of a coordinated-checkpointing cluster: "
         "A(a, I), the optimal I for each a, and the (a, I) minimising the expected run time";
}

void MarkovAvailability::validate(const Params& p, const std::filesystem::path& base_dir) const {
  const std::string mode = mode_of(p);
  const avail::PlankSystemResolver sys(p, base_dir);
  if (mode != "optimize" && !p.has("a"))
    throw InputError("a", "", fmt::format("required with mode = \"{}\"", mode));
  if (mode == "evaluate" && !p.has("I"))
    throw InputError("I", "", "required with mode = \"evaluate\"");
  if (mode != "evaluate" && p.has("I"))
    throw InputError("I", format_duration(p.real("I")),
                     fmt::format("not used with mode = \"{}\" (it is optimised)", mode));
  if (p.has("a")) {
    const avail::PlankSystem s = sys.at(static_cast<int>(p.integer("a")));
    if (p.has("I")) {
      const double I = p.real("I");
      if (!(I >= s.L_s))
        throw InputError("I", format_duration(I),
                         fmt::format("I must be >= L = {}", format_duration(s.L_s)));
      if (!(I >= s.C_s) || !(I > 0))
        throw InputError("I", format_duration(I),
                         fmt::format("I must be > 0 and >= C = {}", format_duration(s.C_s)));
    }
  } else {
    for (int a = 1; a <= sys.N(); ++a) (void)sys.at(a);  // CS_a >= 0 for every a
  }
}

double MarkovAvailability::cost(const Params& p, const std::filesystem::path&) const {
  // optimize searches a = 1..N (N from the environment when not given: 32 in the paper).
  if (mode_of(p) != "optimize") return 1.0;
  return p.has("N") ? static_cast<double>(p.integer("N")) : 32.0;
}

void MarkovAvailability::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const std::string mode = mode_of(p);
  const avail::PlankSystemResolver resolver(p, ctx.base_dir);
  Outcome best;
  if (mode == "evaluate") {
    const int a = static_cast<int>(p.integer("a"));
    const avail::PlankSystem sys = resolver.at(a);
    avail::ChainParams cp;
    cp.N = sys.N;
    cp.a = a;
    cp.I_s = p.real("I");
    cp.C_s = sys.C_s;
    cp.L_s = sys.L_s;
    cp.R_s = sys.R_s;
    cp.lambda_per_s = 1.0 / sys.mttf_s;
    cp.theta_per_s = 1.0 / sys.mttr_s;
    const avail::ChainResult r = avail::evaluate_chain(cp);
    best.a = a;
    best.I_s = cp.I_s;
    best.availability = r.availability;
    best.log_availability = std::log(r.availability);
    best.down_fraction = r.down_fraction;
    best.runtime_s = sys.runtime_s;
  } else if (mode == "optimize_interval") {
    const int a = static_cast<int>(p.integer("a"));
    best = optimize_for(resolver.at(a), a);
  } else {
    FS_CHECK(mode == "optimize", "markov_availability: unknown mode " + mode);
    // Minimise log RT_a - log A (log A stays finite where A underflows); without an app,
    // maximise A. Ties keep the smaller a.
    double best_score = std::numeric_limits<double>::infinity();
    for (int a = 1; a <= resolver.N(); ++a) {
      const Outcome o = optimize_for(resolver.at(a), a);
      const double score =
          resolver.has_app() ? std::log(o.runtime_s) - o.log_availability : -o.log_availability;
      if (score < best_score) best_score = score, best = o;
    }
  }
  MetricSlots sink(out, metrics());  // by name (core/metric_sink.hpp)
  sink.add("a_opt", best.a);
  sink.add("I_opt_h", best.I_s / kHour_s);
  sink.add("availability", best.availability);
  sink.add("runtime_h", best.runtime_s / kHour_s);
  sink.add("expected_runtime_h",
           std::exp(std::log(best.runtime_s) - best.log_availability) / kHour_s);
  sink.add("down_fraction", best.down_fraction);
  sink.require_all();
}

}  // namespace faultsweep::models
