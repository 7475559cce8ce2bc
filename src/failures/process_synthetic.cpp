// The synthetic failure processes without correlation: none, renewal (any lifetime law per node)
// and bathtub (FARS's composite Weibull), and the downtime keys every synthetic process shares.
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"
#include "faultsweep/dist/composite_weibull.hpp"
#include "faultsweep/dist/law_registry.hpp"
#include "faultsweep/failures/process_registry.hpp"

namespace faultsweep::failures {

std::vector<ParamSpec> downtime_specs() {
  ParamSpec down = make_param("downtime", ParamKind::duration, "s", std::nullopt,
                              "repair time: the constant, or the mean of downtime_dist", {}, 0.0);
  ParamSpec law = make_param("downtime_dist", ParamKind::string, "", Value(std::string("constant")),
                             "law of the repair times", {"constant", "exponential", "lognormal"});
  ParamSpec sigma = make_param("downtime_sigma", ParamKind::real, "", std::nullopt,
                               "downtime_dist = \"lognormal\" only: sigma of log downtime (> 0)");
  sigma.optional = true;
  return {down, law, sigma};
}

dist::Dist parse_downtime(const TableReader& r) {
  const double d = r.required("downtime");
  if (!(d >= 0)) throw InputError("downtime", r.text("downtime"), "must be >= 0");
  const std::string kind = r.string("downtime_dist").value_or("constant");
  if (r.has("downtime_sigma") && kind != "lognormal")
    throw InputError("downtime_sigma", r.text("downtime_sigma"),
                     "only allowed with downtime_dist = \"lognormal\"");
  if (kind == "constant") return dist::Dist::constant(d);
  if (kind != "exponential" && kind != "lognormal")
    throw InputError("downtime_dist", r.text("downtime_dist"),
                     "expected one of constant, exponential, lognormal");
  if (!(d > 0))
    throw InputError("downtime", r.text("downtime"),
                     fmt::format("must be > 0 (the mean) with downtime_dist = \"{}\"", kind));
  if (kind == "exponential") return dist::Dist::exponential(d);
  const double sigma = r.required_positive("downtime_sigma");
  // mean = exp(mu + sigma^2 / 2).
  return dist::Dist::lognormal(std::log(d) - 0.5 * sigma * sigma, sigma);
}

namespace {

bool is_downtime_key(const std::string& key) {
  return key.rfind("downtime", 0) == 0;
}

// The lifetime law's keys of a renewal table (all but process and the downtime keys).
Params lifetime_params(const Params& table) {
  Params law;
  for (const auto& [key, value] : table.values())
    if (key != "process" && !is_downtime_key(key)) law.set(key, value);
  return law;
}

// Renewal and bathtub: every node renews independently; the downtime shifts later failures,
// so both streams are keyed by the whole table and the machine.
std::unique_ptr<FailureSource> make_renewal(const FailureSpec& s, const Params& table, int nodes,
                                            double horizon_s, const RunContext& ctx) {
  const std::string config = table.canonical_text() + fmt::format("nodes={}\n", nodes);
  return std::make_unique<RenewalSource>(nodes, *s.ttf, s.downtime,
                                         ctx.stream(Purpose::failures, config),
                                         ctx.stream(Purpose::downtimes, config), horizon_s);
}

// --- none ---

std::unique_ptr<FailureSource> make_none(const FailureSpec&, const Params&, int, double,
                                         const RunContext&) {
  return std::make_unique<TraceSource>(std::vector<FailureEvent>{});
}

// --- renewal ---

std::string expected_laws() {
  return "expected one of " + joined_names(dist::laws(), ", ") +
         " (for FARS's composite Weibull use process = \"bathtub\")";
}

std::vector<ParamSpec> renewal_keys() {
  std::vector<ParamSpec> k = {dist::law_selector(
      "law of the time to failure of one node (its keys below, as for any distribution table)")};
  for (ParamSpec& d : downtime_specs()) k.push_back(std::move(d));
  return k;
}

// The dist name decides which keys are allowed, so it is checked first.
std::vector<std::string> renewal_allowed(const Params& table) {
  if (!table.has("dist"))
    throw InputError("dist", "",
                     fmt::format("required for process = \"renewal\"; {}", expected_laws()));
  const Value& dv = table.at("dist");
  const auto* name = std::get_if<std::string>(&dv);
  const dist::LawRow* law = name ? dist::find_law(*name) : nullptr;
  if (law == nullptr) throw InputError("dist", canonical_value(dv), expected_laws());
  std::vector<std::string> keys = dist::law_table_keys(*law);  // includes "dist"
  for (const ParamSpec& d : downtime_specs()) keys.push_back(d.name);
  return keys;
}

void parse_renewal(const TableReader& r, const Params& table, int, FailureSpec& s) {
  const dist::Dist d = dist::Dist::from_params(lifetime_params(table));
  if (!(d.mean() > 0)) {
    const char* key = d.kind() == dist::Kind::constant ? "value" : "dist";
    throw InputError(key, canonical_value(table.at(key)),
                     "the time to failure must have a mean > 0");
  }
  s.ttf = d;
  s.downtime = parse_downtime(r);
}

double renewal_mtbf_s(const Params& table, int) {
  return dist::Dist::from_params(lifetime_params(table)).mean();
}

// --- bathtub ---

std::vector<ParamSpec> bathtub_keys() {
  std::vector<ParamSpec> k = {make_param(
      "mtbf", ParamKind::duration, "s", std::nullopt,
      "mean time between failures of one node (three Weibull sub-populations, shapes 0.5 / 1.0 / "
      "1.5, equal weights, one scale giving this mean; > 0)",
      {}, 0.0)};
  for (ParamSpec& d : downtime_specs()) k.push_back(std::move(d));
  return k;
}

void parse_bathtub(const TableReader& r, const Params&, int, FailureSpec& s) {
  s.ttf = dist::CompositeWeibull::bathtub(r.required_positive("mtbf"));
  s.downtime = parse_downtime(r);
}

double bathtub_mtbf_s(const Params& table, int) {
  return table.real("mtbf");
}

}  // namespace

ProcessRow none_process() {
  ProcessRow r{"none", "no failures"};
  r.make = make_none;
  r.node_mtbf_s = [](const Params&, int) { return std::numeric_limits<double>::infinity(); };
  r.traits.finite = true;
  return r;
}

ProcessRow renewal_process() {
  ProcessRow r{"renewal",
               "every node renews independently: time to failure ~ dist, then a downtime "
               "(failures/renewal.hpp)"};
  r.keys = renewal_keys;
  r.allowed = renewal_allowed;
  r.parse = parse_renewal;
  r.make = make_renewal;
  r.node_mtbf_s = renewal_mtbf_s;
  return r;
}

ProcessRow bathtub_process() {
  ProcessRow r{"bathtub",
               "FARS §5.2.1 composite Weibull lifetimes per node (dist/composite_weibull.hpp)"};
  r.keys = bathtub_keys;
  r.parse = parse_bathtub;
  r.make = make_renewal;
  r.node_mtbf_s = bathtub_mtbf_s;
  return r;
}

}  // namespace faultsweep::failures
