#include "faultsweep/models/k_node.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/metric_sink.hpp"
#include "faultsweep/dist/distribution.hpp"
#include "faultsweep/fit_command/fit_command.hpp"
#include "faultsweep/reliability/completion.hpp"
#include "faultsweep/reliability/node_table.hpp"

namespace faultsweep::models {
namespace {

using reliability::Node;

// Here a parameter without a default is optional: node_failures / node_table / node_fit and k
// are checked together in validate().
ParamSpec spec(std::string name, ParamKind kind, std::string unit, std::optional<Value> def,
               std::string help) {
  ParamSpec s = make_param(std::move(name), kind, std::move(unit), std::move(def), std::move(help));
  s.optional = !s.default_value.has_value();
  return s;
}

// The node laws in hours. Exactly one of node_failures, node_table, node_fit.
std::vector<Node> resolve_nodes(const Params& p, const std::filesystem::path& base_dir) {
  const bool identical = !p.sub("node_failures").values().empty();
  const int given = identical + p.has("node_table") + p.has("node_fit");
  if (given != 1)
    throw InputError("node_failures", "",
                     "give exactly one of node_failures (identical nodes), node_table, node_fit");
  auto resolve = [&](const std::string& path) {
    const std::filesystem::path f(path);
    return f.is_absolute() ? f : base_dir / f;
  };
  if (p.has("node_table")) return reliability::read_node_table(resolve(p.str("node_table")));
  if (p.has("node_fit")) {
    std::optional<std::int64_t> system;
    if (p.has("system")) system = p.integer("system");
    return fit_command::read_fit_nodes(resolve(p.str("node_fit")), system);
  }
  dist::Dist law = dist::Dist::exponential(1.0);
  try {
    law = dist::Dist::from_params(p.sub("node_failures"));
  } catch (const InputError& e) {
    throw InputError("node_failures." + e.key(), e.value(), e.expected());
  }
  if (law.kind() != dist::Kind::exponential && law.kind() != dist::Kind::weibull)
    throw InputError("node_failures.dist", "", "exponential or weibull");
  // Durations arrive in seconds: the model works in hours.
  const dist::Dist hours = law.kind() == dist::Kind::exponential
                               ? dist::Dist::exponential(law.p1() / kHour_s)
                               : dist::Dist::weibull(law.p1(), law.p2() / kHour_s);
  const auto count = static_cast<std::size_t>(p.integer("nodes"));
  return std::vector<Node>(count, Node{hours, p.real("node_age") / kHour_s});
}

reliability::CompletionJob job_of(const Params& p) {
  reliability::CompletionJob job;
  job.runtime_one = p.real("runtime") / kHour_s;
  job.scaling = p.str("speedup") == "gustafson" ? reliability::Scaling::gustafson
                                                : reliability::Scaling::amdahl;
  job.p = p.real("p");
  job.recovery = p.real("recovery") / kHour_s;
  job.with_reliability = p.str("reliability") == "with";
  return job;
}

}  // namespace

KNode::KNode() {
  params_ = {
      spec("runtime", ParamKind::duration, "s", std::nullopt,
           "T_c(1): failure-free run time of the job on one node"),
      spec("speedup", ParamKind::string, "", Value(std::string("amdahl")),
           "amdahl (Eq. 6.2) or gustafson (Eq. 6.3)"),
      spec("p", ParamKind::real, "", std::nullopt, "parallel fraction of the job, 0..1"),
      spec("recovery", ParamKind::duration, "s", Value(0.0), "R: recovery time after a failure"),
      spec("reliability", ParamKind::string, "", Value(std::string("with")),
           "with (Eq. 6.1), or without: E = T_c(k), the curves of Figs. 6.4-6.5 without it"),
      spec("k", ParamKind::integer, "", std::nullopt,
           "evaluate at this k (default: at the optimal k)"),
      spec("k_max", ParamKind::integer, "", Value(std::int64_t{10000}),
           "search the optimal k in 1..k_max (at most the number of nodes)"),
      spec("node_failures", ParamKind::dist, "", std::nullopt,
           "identical nodes: a weibull or exponential law of each node's TTF"),
      spec("nodes", ParamKind::integer, "", Value(std::int64_t{10000}),
           "identical nodes: how many"),
      spec("node_age", ParamKind::duration, "s", Value(0.0),
           "identical nodes: survival time t of every node at submission (Eqs. 4.3-4.4)"),
      spec("node_table", ParamKind::path, "", std::nullopt,
           "CSV of per-node laws (shape,scale_h[,age_h] or rate_per_h[,age_h])"),
      spec("node_fit", ParamKind::path, "", std::nullopt,
           "HDF5 file of `faultsweep fit`: per-node Weibull fits"),
      spec("system", ParamKind::integer, "", std::nullopt,
           "with node_fit: the system, if the file holds several"),
  };
  for (auto& s : params_) {
    if (s.name == "runtime" || s.name == "p") s.optional = false;  // required
    if (s.name == "p") s.min = 0, s.max = 1;
    if (s.name == "speedup") s.choices = {"amdahl", "gustafson"};
    if (s.name == "reliability") s.choices = {"with", "without"};
    if (s.name == "k" || s.name == "k_max" || s.name == "nodes") s.min = 1;
    if (s.kind == ParamKind::duration) s.min = 0;
  }
  metrics_ = {
      {"k", "1", "nodes: the given k, or the optimal k"},
      {"speedup", "1", "S(k), Eq. 6.2 (Amdahl) or 6.3 (Gustafson)"},
      {"runtime_h", "h", "T_c(k) = T_c(1) / S(k)"},
      {"reliability", "1", "R_sys over T_c(k) on the k most reliable nodes, Eq. 4.10"},
      {"failure_rate_per_h", "1/h", "system failure rate at the end of the job, Eq. 4.11"},
      {"mttf_h", "h", "M: MTTF of the k nodes after their survival times, Eq. 4.12"},
      {"expected_h", "h", "E[T_c(k)] = T_c(k) + (M + R) F / (1 - F), Eq. 6.1"},
      {"k_opt", "1", "the k in 1..k_max with the least E[T_c(k)]"},
      {"expected_opt_h", "h", "E[T_c(k_opt)]"},
  };
}

std::string KNode::description() const {
  return "Gottumukkala's reliability-aware optimal k-node allocation: R_sys, MTTF and expected "
         "completion time E[T_c(k)] of an un-checkpointed job on the k most reliable nodes "
         "(Amdahl or Gustafson), and the optimal k";
}

void KNode::validate(const Params& p, const std::filesystem::path& base_dir) const {
  const std::vector<Node> nodes = resolve_nodes(p, base_dir);
  if (p.has("k") && p.integer("k") > static_cast<std::int64_t>(nodes.size()))
    throw InputError("k", fmt::format("{}", p.integer("k")),
                     fmt::format("at most the number of nodes, {}", nodes.size()));
  if (!(p.real("runtime") > 0)) throw InputError("runtime", "0", "a run time > 0");
}

void KNode::run(const Params& p, const RunContext& ctx, std::span<double> out) const {
  const reliability::KNodePlanner planner(resolve_nodes(p, ctx.base_dir), job_of(p));
  const int k_max = static_cast<int>(std::min<std::int64_t>(p.integer("k_max"), planner.nodes()));
  const reliability::CompletionPoint best = planner.optimum(k_max);
  const reliability::CompletionPoint at =
      p.has("k") ? planner.at(static_cast<int>(p.integer("k"))) : best;
  MetricSlots sink(out, metrics());  // by name (core/metric_sink.hpp)
  sink.add("k", at.k);
  sink.add("speedup", at.speedup);
  sink.add("runtime_h", at.runtime);
  sink.add("reliability", at.reliability);
  sink.add("failure_rate_per_h", at.failure_rate);
  sink.add("mttf_h", at.mttf);
  sink.add("expected_h", at.expected);
  sink.add("k_opt", best.k);
  sink.add("expected_opt_h", best.expected);
  sink.require_all();
}

}  // namespace faultsweep::models
