#include "faultsweep/models/checkpoint_sim_model.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "faultsweep/avail/checkpoint_sim.hpp"
#include "faultsweep/avail/markov_chain.hpp"
#include "faultsweep/avail/plank_system.hpp"
#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/dist/distribution.hpp"

namespace faultsweep::models {

namespace {

constexpr double kDefaultHorizon_s = 10000 * kDay_s;

// The distribution under `name` ("failures", "repairs"), if the point gives one. Errors name the
// full key ("failures.shape"), so the job loader can locate them.
std::optional<dist::Dist> dist_param(const Params& p, const std::string& name) {
  const Params sub = p.sub(name);
  if (sub.values().empty()) return std::nullopt;
  try {
    return dist::Dist::from_params(sub);
  } catch (const InputError& e) {
    throw InputError(e.key().empty() ? name : name + "." + e.key(), e.value(), e.expected());
  }
}

// Everything one replica needs, resolved from the point's parameters.
struct Point {
  avail::SimConfig sim;
  bool exponential = false;  // both laws exponential: the chain applies
};

Point resolve_point(const Params& p, const std::filesystem::path& base_dir) {
  const auto a = p.integer("a");
  const std::optional<dist::Dist> failures = dist_param(p, "failures");
  const std::optional<dist::Dist> repairs = dist_param(p, "repairs");

  // An explicit law stands in for mttf / mttr, so that a system given only by N, C, L, R and two
  // laws resolves without an environment.
  Params sys_params = p;
  if (failures && !p.has("mttf")) sys_params.set("mttf", failures->mean());
  if (repairs && !p.has("mttr")) sys_params.set("mttr", repairs->mean());
  if (a < 1 || a > std::numeric_limits<int>::max())
    throw InputError("a", std::to_string(a), "must be >= 1");
  const avail::PlankSystem sys =
      avail::resolve_plank_system(sys_params, base_dir, static_cast<int>(a));

  Point pt;
  avail::SimConfig& c = pt.sim;
  c.N = sys.N;
  c.a = static_cast<int>(a);
  c.I_s = p.real("I");
  c.C_s = sys.C_s;
  c.L_s = sys.L_s;
  c.R_s = sys.R_s;
  c.horizon_s = p.has("horizon") ? p.real("horizon") : kDefaultHorizon_s;
  if (!failures && !(sys.mttf_s > 0))
    throw InputError("failures", "", "required when neither mttf nor env gives an MTTF");
  if (!repairs && !(sys.mttr_s > 0))
    throw InputError("repairs", "", "required when neither mttr nor env gives an MTTR");
  c.failure = failures ? *failures : dist::Dist::exponential(sys.mttf_s);
  c.repair = repairs ? *repairs : dist::Dist::exponential(sys.mttr_s);
  pt.exponential =
      c.failure.kind() == dist::Kind::exponential && c.repair.kind() == dist::Kind::exponential;
  const std::string sampler = p.has("sampler") ? p.str("sampler") : std::string("auto");
  if (sampler == "superposition" && !pt.exponential)
    throw InputError("sampler", sampler,
                     "per_processor or auto: superposition needs exponential failures and "
                     "repairs");
  c.sampler = sampler == "per_processor" || !pt.exponential ? avail::Sampler::per_processor
                                                            : avail::Sampler::superposition;
  const std::string draws = p.has("exp_draws") ? p.str("exp_draws") : std::string("auto");
  if (draws != "auto" && c.sampler == avail::Sampler::per_processor)
    throw InputError("exp_draws", draws,
                     "auto with the per-processor sampler, which draws from the laws themselves "
                     "(ziggurat and inversion choose the superposition sampler's draws)");
  c.exp_draws = draws == "inversion" ? avail::ExpDraws::inversion : avail::ExpDraws::ziggurat;
  return pt;
}

// Expected processor events in one replica: each processor completes one failure and one repair
// per mttf + mttr on average.
double expected_events(const avail::SimConfig& c) {
  const double cycle_s = c.failure.mean() + c.repair.mean();
  return 2.0 * c.N * c.horizon_s / cycle_s;
}

}  // namespace

std::string CheckpointSimModel::description() const {
  return "Plank & Thomason checkpointing system by simulation (JPDC 2001, §9): N processors fail "
         "and are repaired independently, a run the application with checkpoint interval I, a "
         "failed active processor is replaced by a functional spare; availability = committed "
         "useful work / horizon. Reports the Markov chain's A(a, I) beside it when failures and "
         "repairs are exponential.";
}

const std::vector<ParamSpec>& CheckpointSimModel::params() const {
  static const std::vector<ParamSpec> specs = [] {
    std::vector<ParamSpec> s = avail::plank_system_param_specs();
    const double inf = std::numeric_limits<double>::infinity();
    s.push_back({"a",
                 ParamKind::integer,
                 "",
                 std::nullopt,
                 1.0,
                 inf,
                 {},
                 "active processors (1 <= a <= N)"});
    s.push_back({"I",
                 ParamKind::duration,
                 "s",
                 std::nullopt,
                 0.0,
                 inf,
                 {},
                 "checkpoint interval, including the overhead C (I >= L, I > C)"});
    s.push_back({"horizon",
                 ParamKind::duration,
                 "s",
                 Value(kDefaultHorizon_s),
                 0.0,
                 inf,
                 {},
                 "simulated wall-clock time per replica (> 0)"});
    s.push_back(make_param(
        "sampler", ParamKind::string, "", Value(std::string("auto")),
        "how processor events are drawn: superposition (the machine's next event from the total "
        "rate, one exponential and one uniform draw per event; exponential laws only), "
        "per_processor (each processor's own next event, any laws; the draws of results versions "
        "1 and 2), auto (superposition when both laws are exponential, else per_processor)",
        {"auto", "superposition", "per_processor"}));
    s.push_back(make_param(
        "exp_draws", ParamKind::string, "", Value(std::string("auto")),
        "how the superposition sampler draws the times between events: ziggurat (Marsaglia & "
        "Tsang's table method, no log for 98 % of the draws), inversion (-ln U; with it the "
        "sampler gives the draws of results version 3), auto (ziggurat; the only value the "
        "per-processor sampler takes)",
        {"auto", "ziggurat", "inversion"}));
    ParamSpec failures{
        "failures", ParamKind::dist,
        "s",        std::nullopt,
        -inf,       inf,
        {},         "time to failure of one processor (default: exponential, mean mttf)"};
    failures.optional = true;
    s.push_back(failures);
    ParamSpec repairs{"repairs", ParamKind::dist,
                      "s",       std::nullopt,
                      -inf,      inf,
                      {},        "repair time of one processor (default: exponential, mean mttr)"};
    repairs.optional = true;
    s.push_back(repairs);
    return s;
  }();
  return specs;
}

const std::vector<MetricSpec>& CheckpointSimModel::metrics() const {
  static const std::vector<MetricSpec> specs{
      {"availability", "1", "useful work committed by checkpoints / horizon (simulated)"},
      {"chain_availability", "1",
       "A(a, I) of the Markov chain M (Eq. 5) for the same parameters; NaN unless failures and "
       "repairs are both exponential"},
      {"down_fraction", "1", "fraction of the horizon with fewer than a functional processors"},
      {"active_failures", "1", "failures of active processors (count)"},
      {"checkpoints", "1", "completed checkpoints, including the first after each recovery"},
      {"events", "1", "processor failures + repairs simulated"},
      {"simulated_days", "d", "horizon of the replica"},
  };
  return specs;
}

void CheckpointSimModel::validate(const Params& p, const std::filesystem::path& base_dir) const {
  const Point pt = resolve_point(p, base_dir);
  const avail::SimConfig& c = pt.sim;
  if (c.a > c.N) throw InputError("a", std::to_string(c.a), fmt::format("must be <= N = {}", c.N));
  if (!(c.I_s >= c.L_s))
    throw InputError("I", format_duration(c.I_s),
                     fmt::format("must be >= L = {}", format_duration(c.L_s)));
  if (!(c.I_s > c.C_s))
    throw InputError("I", format_duration(c.I_s),
                     fmt::format("must be > C = {}", format_duration(c.C_s)));
  if (!(c.horizon_s > 0) || !std::isfinite(c.horizon_s))
    throw InputError("horizon", format_duration(c.horizon_s), "must be > 0 and finite");
  // A law with mean 0 (constant 0) would make time stand still.
  if (!(c.failure.mean() > 0))
    throw InputError("failures", c.failure.canonical_text(), "must have a mean > 0");
  if (!(c.repair.mean() > 0))
    throw InputError("repairs", c.repair.canonical_text(), "must have a mean > 0");
}

double CheckpointSimModel::cost(const Params& p, const std::filesystem::path& base_dir) const {
  // Expected processor events; if the system cannot be resolved, one event per processor-day
  // (only the order of costs matters).
  double events = 0;
  try {
    events = expected_events(resolve_point(p, base_dir).sim);
  } catch (const Error&) {
    const double horizon_s = p.has("horizon") ? p.real("horizon") : kDefaultHorizon_s;
    const double n = p.has("N") ? p.real("N") : 32.0;
    events = n * horizon_s / kDay_s;
  }
  return std::isfinite(events) && events > 1 ? events : 1.0;
}

void CheckpointSimModel::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const Point pt = resolve_point(p, ctx.base_dir);
  const avail::SimConfig& c = pt.sim;
  // Streams depend on N and the law only: common random numbers across a, I, C, L, R.
  const std::string n_text = fmt::format("N={};", c.N);
  Engine failures = ctx.stream(Purpose::failures, n_text + c.failure.canonical_text());
  Engine repairs = ctx.stream(Purpose::repairs, n_text + c.repair.canonical_text());
  const avail::SimResult r = avail::simulate_checkpointing(c, failures, repairs);

  double chain = std::numeric_limits<double>::quiet_NaN();
  if (pt.exponential) {
    avail::ChainParams cp;
    cp.N = c.N;
    cp.a = c.a;
    cp.I_s = c.I_s;
    cp.C_s = c.C_s;
    cp.L_s = c.L_s;
    cp.R_s = c.R_s;
    cp.lambda_per_s = 1.0 / c.failure.mean();
    cp.theta_per_s = 1.0 / c.repair.mean();
    chain = avail::evaluate_chain(cp).availability;
  }

  MetricSlots sink(out, metrics());  // by name (core/metric_sink.hpp)
  sink.add("availability", r.availability());
  sink.add("chain_availability", chain);
  sink.add("down_fraction", r.down_s / r.total_s);
  sink.add("active_failures", static_cast<double>(r.active_failures));
  sink.add("checkpoints", static_cast<double>(r.checkpoints));
  sink.add("events", static_cast<double>(r.events));
  sink.add("simulated_days", r.total_s / kDay_s);
  sink.require_all();
}

}  // namespace faultsweep::models
