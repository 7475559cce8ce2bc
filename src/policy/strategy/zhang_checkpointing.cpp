#include "faultsweep/policy/zhang_checkpointing.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "faultsweep/core/duration.hpp"
#include "faultsweep/core/error.hpp"
#include "faultsweep/core/table_reader.hpp"

namespace faultsweep::policy {

namespace {

constexpr double kDay_s = 86400.0;

// TableReader's errors name the bare sub-key: put the table's name in front.
template <class F>
auto in_zhang(F&& f) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError("zhang." + e.key(), e.value(), e.expected());
  }
}

}  // namespace

ZhangConfig ZhangConfig::from_table(const Params& table, double checkpoint_cost_s) {
  const TableReader t(table, "the zhang table");
  ZhangConfig c;
  in_zhang([&] {
    t.check_keys(table_key_names(zhang_table_spec()));
    c.buckets = t.integer("buckets").value_or(c.buckets);
    if (c.buckets < 1 || std::int64_t{86400} % c.buckets != 0)
      throw InputError("buckets", t.has("buckets") ? t.text("buckets") : "6",
                       "an integer >= 1 dividing 86400 (buckets per day; each bucket a whole "
                       "number of seconds, e.g. 24, 6, 3 for 1-, 4-, 8-hour buckets)");
    c.bucket_s = kDay_s / static_cast<double>(c.buckets);
    c.interval_s = t.number("interval").value_or(std::min(3600.0, c.bucket_s));
    const double per_bucket = c.bucket_s / c.interval_s;
    if (!(c.interval_s > checkpoint_cost_s) || !(c.interval_s <= c.bucket_s) ||
        std::abs(per_bucket - std::round(per_bucket)) > 1e-9 * per_bucket)
      throw InputError(
          "interval", format_duration(c.interval_s),
          fmt::format("> checkpoint_cost ({}) and dividing the bucket ({}) into a "
                      "whole number of checkpoint intervals",
                      format_duration(checkpoint_cost_s), format_duration(c.bucket_s)));
    c.long_run_s = t.number("long_run").value_or(c.long_run_s);
    if (!(c.long_run_s >= 0))
      throw InputError("long_run", t.text("long_run"), "must be >= 0 (a duration)");
    c.big_k = t.integer("big_k").value_or(c.big_k);
    if (c.big_k < 1) throw InputError("big_k", t.text("big_k"), "an integer >= 1");
    c.lff_threshold = t.integer("lff_threshold").value_or(c.lff_threshold);
    if (c.lff_threshold < 0)
      throw InputError("lff_threshold", t.text("lff_threshold"), "an integer >= 0 (failures)");
    c.migration_overhead_s = t.number("migration_overhead").value_or(c.migration_overhead_s);
    if (!(c.migration_overhead_s >= 0))
      throw InputError("migration_overhead", t.text("migration_overhead"),
                       "must be >= 0 (a duration)");
    return 0;
  });
  return c;
}

ZhangConfig zhang_config_of(const Params& point) {
  return ZhangConfig::from_table(point.sub("zhang"), point.real("checkpoint_cost"));
}

ParamSpec zhang_table_spec() {
  ParamSpec buckets =
      make_param("buckets", ParamKind::integer, "", Value(std::int64_t{6}),
                 "buckets per day, dividing 86400 (6: 4-hour buckets; §5.2.2)", {}, 1.0);
  buckets.max = 86400;
  ParamSpec interval = make_param(
      "interval", ParamKind::duration, "s", std::nullopt,
      "checkpoint interval within a flagged bucket: > checkpoint_cost and dividing the bucket "
      "(default min(1h, bucket))",
      {}, 0.0);
  interval.optional = true;
  ParamSpec long_run =
      make_param("long_run", ParamKind::duration, "s", Value(300.0),
                 "bucket_long: checkpoint only jobs running at least this long", {}, 0.0);
  ParamSpec big_k = make_param("big_k", ParamKind::integer, "", Value(std::int64_t{1}),
                               "bucket_big: checkpoint the k largest running jobs", {}, 1.0);
  ParamSpec lff =
      make_param("lff_threshold", ParamKind::integer, "", Value(std::int64_t{1}),
                 "lff_migrate: migrate when the failure counts differ by more", {}, 0.0);
  ParamSpec overhead = make_param("migration_overhead", ParamKind::duration, "s", Value(300.0),
                                  "lff_migrate: the cost of one migration", {}, 0.0);
  return make_table_param("zhang",
                          "Zhang §5.2 settings (policy/zhang_checkpointing.hpp, "
                          "least_failure_first.hpp)",
                          {buckets, interval, long_run, big_k, lff, overhead});
}

void validate_zhang_table(const Params& point) {
  (void)zhang_config_of(point);
}

// --- §5.2.1 perfect prediction ---

PredictExact::PredictExact(const Params& point) : cost_s_(point.real("checkpoint_cost")) {
  (void)zhang_config_of(point);  // no keys of its own, but unknown keys are still an error
  if (!(cost_s_ > 0))
    throw InputError("checkpoint_cost", format_duration(cost_s_),
                     "must be > 0 with strategy = \"predict_exact\"");
}

StrategyNeeds PredictExact::needs() const {
  StrategyNeeds n;
  n.warning_lead_s = cost_s_ + kExactMargin_s;
  return n;
}

void PredictExact::on_warning(const ClusterView& v, const failures::FailureEvent& f,
                              Decisions& out) {
  if (v.node_use(f.node) != NodeUse::busy) return;  // idle, held by a suspended job, down
  const std::int32_t j = v.node_owner(f.node);
  // Zhang §5.2.1: the specific job the failure will hit checkpoints exactly before it.
  if (std::find(out.checkpoint.begin(), out.checkpoint.end(), j) == out.checkpoint.end())
    out.checkpoint.push_back(j);
}

// --- §5.2.2 bucketed temporal prediction ---

BucketCheckpointing::BucketCheckpointing(BucketChoice choice, const Params& point)
    : choice_(choice), cfg_(zhang_config_of(point)) {
  per_bucket_ = std::llround(cfg_.bucket_s / cfg_.interval_s);
  big_.reserve(static_cast<std::size_t>(point.integer("nodes")));
}

std::string_view BucketCheckpointing::name() const {
  switch (choice_) {
    case BucketChoice::all:
      return "bucket_all";
    case BucketChoice::longer:
      return "bucket_long";
    case BucketChoice::big:
      return "bucket_big";
  }
  return "bucket";
}

StrategyNeeds BucketCheckpointing::needs() const {
  StrategyNeeds n;
  n.period_s = cfg_.interval_s;  // ticks at bucket starts (time 0 = midnight) and every I
  n.offset_s = 0;
  return n;
}

void BucketCheckpointing::on_tick(const ClusterView& v, Decisions& out) {
  if (tick_++ % per_bucket_ == 0) {
    // Zhang §5.2.2: at the start of the bucket we know whether a failure falls in it, not
    // when or where: one prediction over the whole bucket, of which only the emptiness of the
    // report is used.
    on_ = !v.predict(cfg_.bucket_s).empty();
    ++buckets_seen_;
    buckets_flagged_ += on_ ? 1 : 0;
  }
  if (!on_) return;
  const auto running = v.running();
  switch (choice_) {
    case BucketChoice::all:
    case BucketChoice::longer:
      for (const Release& r : running) {
        const JobView j = v.job(r.job);
        if (!j.running) continue;
        if (choice_ == BucketChoice::longer && v.now_s() - j.exec_start_s < cfg_.long_run_s)
          continue;
        out.checkpoint.push_back(j.id);
      }
      break;
    case BucketChoice::big: {
      big_.clear();
      for (const Release& r : running) {
        const JobView j = v.job(r.job);
        if (j.running) big_.push_back(j);
      }
      // The k largest; ties: the earlier first start (larger elapsed), then the lower id.
      const auto bigger = [](const JobView& a, const JobView& b) {
        if (a.size != b.size) return a.size > b.size;
        if (a.elapsed_s != b.elapsed_s) return a.elapsed_s > b.elapsed_s;
        return a.id < b.id;
      };
      const auto k = std::min<std::size_t>(big_.size(), static_cast<std::size_t>(cfg_.big_k));
      std::partial_sort(big_.begin(), big_.begin() + static_cast<std::ptrdiff_t>(k), big_.end(),
                        bigger);
      for (std::size_t i = 0; i < k; ++i) out.checkpoint.push_back(big_[i].id);
      break;
    }
  }
}

}  // namespace faultsweep::policy
