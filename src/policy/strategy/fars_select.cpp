#include "faultsweep/policy/fars_select.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <variant>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/stop.hpp"

namespace faultsweep::policy {
namespace {

// FARS §5.3 applies a 10 s threshold to the failure-free time in FSD; FSD-D (Eq. 4) divides by
// the same t_i, so it uses the same threshold (the paper does not say; without it a 1 s job
// would get a gain 10x that of the FSD it can actually save).
constexpr double kFsdThreshold_s = 10.0;

double table_seconds(const Params& t, const std::string& key, bool required, double fallback) {
  if (!t.has(key)) {
    if (required) throw InputError("fars." + key, "(missing)", "required (a duration)");
    return fallback;
  }
  const Value& v = t.at(key);
  if (!std::holds_alternative<double>(v) && !std::holds_alternative<std::int64_t>(v))
    throw InputError("fars." + key, canonical_value(v), "must be a duration");
  const double d = t.real(key);
  if (!std::isfinite(d)) throw InputError("fars." + key, canonical_value(v), "must be finite");
  return d;
}

std::string table_choice(const Params& t, const std::string& key, const std::string& fallback,
                         std::initializer_list<const char*> allowed) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  std::string expected = "expected one of";
  for (const char* a : allowed) {
    if (std::holds_alternative<std::string>(v) && std::get<std::string>(v) == a) return a;
    expected += fmt::format(" \"{}\"", a);
  }
  throw InputError("fars." + key, canonical_value(v), expected);
}

bool table_flag(const Params& t, const std::string& key, bool fallback) {
  if (!t.has(key)) return fallback;
  const Value& v = t.at(key);
  if (!std::holds_alternative<bool>(v))
    throw InputError("fars." + key, canonical_value(v), "must be true or false");
  return std::get<bool>(v);
}

}  // namespace

FarsStrategy fars_strategy_from(std::string_view name) {
  if (name == "none") return FarsStrategy::none;
  if (name == "sul_d") return FarsStrategy::sul_d;
  if (name == "jfr_d") return FarsStrategy::jfr_d;
  if (name == "fsd_d") return FarsStrategy::fsd_d;
  throw InputError("strategy", std::string(name), "expected one of none, sul_d, jfr_d, fsd_d");
}

std::string_view to_string(FarsStrategy s) {
  switch (s) {
    case FarsStrategy::none:
      return "none";
    case FarsStrategy::sul_d:
      return "sul_d";
    case FarsStrategy::jfr_d:
      return "jfr_d";
    case FarsStrategy::fsd_d:
      return "fsd_d";
  }
  return "?";
}

void QueueWaitEstimator::observe(double wait_s) {
  FS_CHECK(wait_s >= 0 && std::isfinite(wait_s), fmt::format("queue wait {}", wait_s));
  ++n_;
  last_s_ = wait_s;
  sum_s_ += wait_s;
}

double QueueWaitEstimator::estimate_s() const {
  if (n_ == 0) return 0.0;
  return mode_ == Mode::last ? last_s_ : sum_s_ / static_cast<double>(n_);
}

double FarsConfig::migration_overhead_s() const {
  // FARS §4.2 (after Eq. 2): stop-and-restart O_F = O_ckp + O_r; live migration O_F = O_r.
  return overhead == Overhead::live ? restart_cost_s : checkpoint_cost_s + restart_cost_s;
}

FarsConfig FarsConfig::from_table(const Params& table) {
  static const std::vector<std::string> keys = table_key_names(fars_table_spec());
  for (const auto& [key, value] : table.values())
    if (std::find(keys.begin(), keys.end(), key) == keys.end())
      throw InputError("fars." + key, canonical_value(value),
                       "unknown key; expected " + fmt::format("{}", fmt::join(keys, ", ")));
  FarsConfig c;
  c.interval_s = table_seconds(table, "interval", true, 0.0);
  if (!(c.interval_s > 0))
    throw InputError("fars.interval", format_duration(c.interval_s), "must be > 0");
  c.overhead = table_choice(table, "overhead", "stop_restart", {"stop_restart", "live"}) == "live"
                   ? Overhead::live
                   : Overhead::stop_restart;
  c.checkpoint_cost_s =
      table_seconds(table, "checkpoint_cost", c.overhead == Overhead::stop_restart, 0.0);
  c.restart_cost_s = table_seconds(table, "restart_cost", true, 0.0);
  for (const auto& [key, v] : {std::pair{"checkpoint_cost", c.checkpoint_cost_s},
                               std::pair{"restart_cost", c.restart_cost_s}})
    if (!(v >= 0))
      throw InputError(std::string("fars.") + key, format_duration(v),
                       "must be >= 0 (the migration overhead O_F cannot be negative)");
  c.queue_wait = table_choice(table, "queue_wait", "mean", {"last", "mean"}) == "last"
                     ? QueueWaitEstimator::Mode::last
                     : QueueWaitEstimator::Mode::mean;
  c.hold_vacated = table_flag(table, "hold_vacated", false);
  return c;
}

ParamSpec fars_table_spec() {
  const auto dur = [](const char* name, std::optional<Value> def, std::string help) {
    return make_param(name, ParamKind::duration, "s", std::move(def), std::move(help), {}, 0.0);
  };
  ParamSpec interval = dur("interval", std::nullopt, "I_F: FARS is invoked every I_F (§5.1), > 0");
  ParamSpec overhead =
      make_param("overhead", ParamKind::string, "", Value(std::string("stop_restart")),
                 "migration overhead O_F (§4.2): stop_restart = O_ckp + O_r; live = O_r",
                 {"stop_restart", "live"});
  ParamSpec checkpoint = dur("checkpoint_cost", std::nullopt,
                             "O_ckp, >= 0; required with overhead = \"stop_restart\"");
  checkpoint.optional = true;
  ParamSpec restart = dur("restart_cost", std::nullopt, "O_r, >= 0");
  ParamSpec wait = make_param("queue_wait", ParamKind::string, "", Value(std::string("mean")),
                              "O_q, the expected queue wait: the last job's or the mean so far",
                              {"last", "mean"});
  ParamSpec hold = make_param("hold_vacated", ParamKind::boolean, "", Value(false),
                              "true: a node a move frees stays a spare until the next "
                              "invocation (a spare may then delay the head job's EASY "
                              "reservation)");
  return make_table_param("fars",
                          "FARS settings (policy/fars_select.hpp): { interval = I_F, overhead, "
                          "checkpoint_cost = O_ckp, restart_cost = O_r, queue_wait, "
                          "hold_vacated }",
                          {interval, overhead, checkpoint, restart, wait, hold});
}

void validate_fars_table(const Params& point) {
  (void)FarsConfig::from_table(point.sub("fars"));
}

double failure_probability(double precision, int reported_nodes) {
  // FARS Eq. 2: f_i = 1 - (1 - precision)^(n_i^s).
  if (reported_nodes <= 0) return 0.0;
  return 1.0 - std::pow(1.0 - precision, reported_nodes);
}

double fars_gain(FarsStrategy s, const SuspiciousJob& job, const GainInputs& in, double f) {
  FS_CHECK(job.safe_point_s <= in.now_s,
           fmt::format("job {}: safe point {} after now {}", job.id, job.safe_point_s, in.now_s));
  // Work lost by a failure uniformly distributed in the next interval: t + I_F / 2 - t_last.
  const double lost_s = in.now_s + 0.5 * in.interval_s - job.safe_point_s;
  switch (s) {
    case FarsStrategy::sul_d:
      // FARS Eq. 2, as printed: v_i = f_i * n_i * (t + I_F/2 - t_last - O_F). O_F sits inside
      // the bracket, so the migration cost is weighted by f_i like the saving (the OCR keeps
      // the bracket closing after O_F).
      return f * static_cast<double>(job.size) * (lost_s - in.overhead_s);
    case FarsStrategy::jfr_d:
      // FARS Eq. 3: v_i = f_i * 1.
      return f;
    case FarsStrategy::fsd_d: {
      // FARS Eq. 4: v_i = f_i * (t + I_F/2 - t_last + O_q + O_r - O_F) / t_i (t_i thresholded
      // at 10 s, see kFsdThreshold_s).
      FS_CHECK(job.runtime_s > 0, fmt::format("job {}: runtime {}", job.id, job.runtime_s));
      const double t_i = std::max(job.runtime_s, kFsdThreshold_s);
      return f * (lost_s + in.queue_wait_s + in.restart_s - in.overhead_s) / t_i;
    }
    case FarsStrategy::none:
      return 0.0;
  }
  return 0.0;
}

void FarsSelection::clear() {
  jobs.clear();
  nodes_used = 0;
  gain = 0.0;
  has_residual = false;
  residual_job = 0;
  residual_nodes = 0;
  residual_gain = 0.0;
}

Knapsack::Knapsack(std::size_t max_items, std::int32_t max_capacity) {
  const auto row = static_cast<std::size_t>(std::max<std::int32_t>(max_capacity, 0)) + 1;
  best_.reserve(row);
  take_.reserve(max_items * row);
}

double Knapsack::solve(std::span<const std::int32_t> weights, std::span<const double> values,
                       std::int32_t capacity, std::vector<std::uint8_t>& chosen) {
  FS_CHECK(weights.size() == values.size(), "knapsack: weights and values differ in length");
  FS_CHECK(capacity >= 0, fmt::format("knapsack capacity {}", capacity));
  const std::size_t n = weights.size();
  chosen.assign(n, 0);
  std::int64_t total = 0;
  for (std::size_t k = 0; k < n; ++k) {
    FS_CHECK(weights[k] >= 1, fmt::format("knapsack item {} weight {}", k, weights[k]));
    FS_CHECK(!std::isnan(values[k]), fmt::format("knapsack item {} value NaN", k));
    total += weights[k];
  }
  // Capacity beyond the total weight changes nothing: cap the table there.
  const auto cap = static_cast<std::size_t>(std::min<std::int64_t>(capacity, total));
  if (cap == 0) return 0.0;
  const std::size_t row = cap + 1;
  best_.assign(row, 0.0);  // G[0][w] = 0 (Eq. 5); "no more than w": all w start at 0
  take_.assign(n * row, 0);
  // FARS Eq. 5: G[k][w] = 0 if k w = 0 (the OCR's "0 kw = 0": no job or no node), else
  // G[k-1][w] if n_k^s > w, else max(G[k-1][w], v_k + G[k-1][w - n_k^s]);
  // one rolling row, w descending so that G[k-1][w - n_k^s] is still the previous row's.
  for (std::size_t k = 0; k < n; ++k) {
    if (!(values[k] > 0)) continue;
    stop_point();  // O(jobs x spare nodes)
    const auto wk = static_cast<std::size_t>(weights[k]);
    if (wk > cap) continue;
    std::uint8_t* take = take_.data() + k * row;
    for (std::size_t w = cap; w >= wk; --w) {
      const double with = values[k] + best_[w - wk];
      if (with > best_[w]) {  // strictly better: ties keep the lower-index selection
        best_[w] = with;
        take[w] = 1;
      }
    }
  }
  std::size_t w = cap;
  for (std::size_t k = n; k-- > 0;) {
    if (take_[k * row + w]) {
      chosen[k] = 1;
      w -= static_cast<std::size_t>(weights[k]);
    }
  }
  return best_[cap];
}

FarsSelector::FarsSelector(std::size_t max_jobs, std::int32_t max_spare_nodes)
    : knapsack_(max_jobs, max_spare_nodes) {
  order_.reserve(max_jobs);
  weights_.reserve(max_jobs);
  values_.reserve(max_jobs);
  chosen_.reserve(max_jobs);
}

void FarsSelector::select(FarsStrategy s, std::span<const SuspiciousJob> jobs, const GainInputs& in,
                          std::int32_t spare_nodes, FarsSelection& out, ResidualRule rule) {
  out.clear();
  FS_CHECK(spare_nodes >= 0, fmt::format("spare pool of {} nodes", spare_nodes));
  if (s == FarsStrategy::none || jobs.empty() || spare_nodes == 0) return;
  order_.resize(jobs.size());
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::sort(order_.begin(), order_.end(),
            [&](std::size_t a, std::size_t b) { return jobs[a].id < jobs[b].id; });
  weights_.clear();
  values_.clear();
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const SuspiciousJob& j = jobs[order_[k]];
    FS_CHECK(k == 0 || jobs[order_[k - 1]].id != j.id, fmt::format("job id {} twice", j.id));
    FS_CHECK(j.suspicious >= 1 && j.suspicious <= j.size,
             fmt::format("job {}: {} suspicious of {} nodes", j.id, j.suspicious, j.size));
    weights_.push_back(j.suspicious);
    values_.push_back(fars_gain(s, j, in, failure_probability(in.precision, j.suspicious)));
  }
  knapsack_.solve(weights_, values_, spare_nodes, chosen_);
  for (std::size_t k = 0; k < order_.size(); ++k) {
    if (!chosen_[k]) continue;
    out.jobs.push_back(jobs[order_[k]].id);
    out.nodes_used += weights_[k];
    out.gain += values_[k];
  }

  // FARS §4.4: R spare nodes left; among the jobs left, the one of maximal gain with f_i over
  // the n_i^s - R processes that stay on reported nodes. Only jobs that do not fit qualify (a
  // job that fits was left out by the knapsack because its gain is <= 0); a gain <= 0 is not
  // worth a move; ties go to the lower id.
  const std::int32_t r = spare_nodes - out.nodes_used;
  if (r <= 0) return;
  const double q = 1.0 - in.precision;
  for (std::size_t k = 0; k < order_.size(); ++k) {
    if (chosen_[k] || weights_[k] <= r) continue;
    const SuspiciousJob& j = jobs[order_[k]];
    const double f = rule == ResidualRule::paper
                         ? failure_probability(in.precision, j.suspicious - r)
                         : std::pow(q, j.suspicious - r) - std::pow(q, j.suspicious);
    const double v = fars_gain(s, j, in, f);
    if (v > 0 && (!out.has_residual || v > out.residual_gain)) {
      out.has_residual = true;
      out.residual_job = j.id;
      out.residual_nodes = r;
      out.residual_gain = v;
    }
  }
}

}  // namespace faultsweep::policy
