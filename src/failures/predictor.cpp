#include "faultsweep/failures/predictor.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <variant>

#include "faultsweep/core/error.hpp"

namespace faultsweep::failures {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double checked_probability(const char* key, double v) {
  if (!(v > 0.0 && v <= 1.0)) throw InputError(key, fmt::format("{}", v), "must be in (0, 1]");
  return v;
}

// Below this precision the (1 - p) / p false alarms per true report exceed 10^9: every node of
// any machine would be reported at every interval, the same as p = 1 / nodes.
constexpr double kMinPrecision = 1e-9;

double checked_precision(double v) {
  if (!(v >= kMinPrecision && v <= 1.0))
    throw InputError("predictor.precision", fmt::format("{}", v),
                     fmt::format("must be in [{:g}, 1] (a smaller precision flags every node at "
                                 "every interval already)",
                                 kMinPrecision));
  return v;
}

double table_number(const Params& t, const std::string& key) {
  const Value& v = t.at(key);
  if (!std::holds_alternative<double>(v) && !std::holds_alternative<std::int64_t>(v))
    throw InputError("predictor." + key, canonical_value(v), "must be a number in (0, 1]");
  return t.real(key);
}

}  // namespace

double PredictionCounts::precision() const {
  const std::int64_t reports = true_positives + false_positives;
  return reports == 0 ? kNaN : static_cast<double>(true_positives) / static_cast<double>(reports);
}

double PredictionCounts::recall() const {
  const std::int64_t real = true_positives + missed;
  return real == 0 ? kNaN : static_cast<double>(true_positives) / static_cast<double>(real);
}

Predictor::Predictor(int nodes, double precision, double recall)
    : Predictor(Kind::emulated, nodes, checked_precision(precision),
                checked_probability("predictor.recall", recall)) {}

Predictor Predictor::none(int nodes) {
  return Predictor(Kind::none, nodes, kNaN, kNaN);
}

Predictor::Predictor(Kind kind, int nodes, double precision, double recall)
    : kind_(kind),
      nodes_(nodes),
      precision_(precision),
      recall_(recall),
      false_per_true_(kind == Kind::emulated ? (1.0 - precision) / precision : 0.0) {
  FS_CHECK(nodes > 0, fmt::format("predictor over {} nodes", nodes));
  const auto n = static_cast<std::size_t>(nodes);
  stamp_.assign(n, 0);
  pool_.resize(n);
  std::iota(pool_.begin(), pool_.end(), 0);
  pos_ = pool_;
}

ParamSpec Predictor::table_spec() {
  ParamSpec kind = make_param("kind", ParamKind::string, "", Value(std::string("emulated")),
                              "emulated: reports failures as FARS §5.1 does; none: never reports",
                              {"emulated", "none"});
  ParamSpec precision =
      make_param("precision", ParamKind::real, "", std::nullopt,
                 "fraction of the reports that are true (>= 1e-9)", {}, kMinPrecision);
  precision.max = 1;
  ParamSpec recall = make_param("recall", ParamKind::real, "", std::nullopt,
                                "fraction of the failing nodes reported (> 0)", {}, 0.0);
  recall.max = 1;
  kind.choice_keys = {{"emulated",
                       "FARS §5.1: each failing node reported with probability "
                       "recall, plus (1 - precision) / precision false alarms per "
                       "true report",
                       {precision, recall}},
                      {"none", "no reports: every failure counts as missed", {}}};
  ParamSpec t = make_param("predictor", ParamKind::table, "", std::nullopt,
                           "failure predictor read by a runtime strategy every interval: { "
                           "precision = p, recall = r } (p in [1e-9, 1], r in (0, 1]), or { "
                           "kind = \"none\" } "
                           "(failures/predictor.hpp; own random stream)");
  t.optional = true;
  t.keys = {kind};
  return t;
}

Predictor Predictor::from_table(const Params& table, int nodes) {
  // The keys of table_spec(): kind and its choices' keys.
  static const std::vector<std::string> allowed = table_key_names(table_spec());
  for (const auto& [key, value] : table.values())
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError("predictor." + key, canonical_value(value),
                       fmt::format("unknown key; expected {}", fmt::join(allowed, ", ")));
  std::string kind = "emulated";
  if (table.has("kind")) {
    const Value& v = table.at("kind");
    if (!std::holds_alternative<std::string>(v) ||
        (std::get<std::string>(v) != "none" && std::get<std::string>(v) != "emulated"))
      throw InputError("predictor.kind", canonical_value(v), "expected \"none\" or \"emulated\"");
    kind = std::get<std::string>(v);
  }
  if (kind == "none") {
    for (const char* k : {"precision", "recall"})
      if (table.has(k))
        throw InputError(std::string("predictor.") + k, canonical_value(table.at(k)),
                         "not allowed with kind = \"none\"");
    return none(nodes);
  }
  for (const char* k : {"precision", "recall"})
    if (!table.has(k))
      throw InputError(std::string("predictor.") + k, "(missing)",
                       "required (a number in (0, 1]), or kind = \"none\"");
  return Predictor(nodes, table_number(table, "precision"), table_number(table, "recall"));
}

void Predictor::swap_to(std::int32_t n, std::size_t last) {
  const auto from = static_cast<std::size_t>(pos_[static_cast<std::size_t>(n)]);
  const std::int32_t other = pool_[last];
  pool_[last] = n;
  pool_[from] = other;
  pos_[static_cast<std::size_t>(n)] = static_cast<std::int32_t>(last);
  pos_[static_cast<std::size_t>(other)] = static_cast<std::int32_t>(from);
}

void Predictor::predict(std::span<const std::int32_t> failing, Engine& engine,
                        std::vector<std::int32_t>& out) {
  out.clear();
  ++counts_.intervals;
  if (++epoch_ == 0) {  // wrapped after 2^32 intervals: old stamps could alias the new epoch
    std::fill(stamp_.begin(), stamp_.end(), 0u);
    epoch_ = 1;
  }
  // FARS §5.1 item 1 (recall): each distinct failing node is reported with probability recall.
  for (const std::int32_t f : failing) {
    FS_CHECK(f >= 0 && f < nodes_, fmt::format("failing node {} of {}", f, nodes_));
    auto& stamp = stamp_[static_cast<std::size_t>(f)];
    if (stamp == epoch_) continue;
    stamp = epoch_;
    if (kind_ == Kind::emulated && (recall_ >= 1.0 || uniform01(engine) < recall_)) {
      out.push_back(f);
      ++counts_.true_positives;
    } else {
      ++counts_.missed;
    }
  }
  const std::size_t x = out.size();
  if (x == 0 || false_per_true_ <= 0.0) return;

  // FARS §5.1 item 2 (precision): x (1 - p) / p false alarms, fractional part by randomized
  // rounding so that E[false alarms] = x (1 - p) / p exactly.
  const double want = static_cast<double>(x) * false_per_true_;
  double whole = std::floor(want);
  const double frac = want - whole;
  if (frac > 0.0 && uniform01(engine) < frac) whole += 1.0;

  // Park the failing nodes at the end of the pool; the prefix [0, avail) is every node without
  // a failure in this interval. (A repeat is already parked: pos_ >= avail.)
  std::size_t avail = pool_.size();
  for (const std::int32_t f : failing)
    if (static_cast<std::size_t>(pos_[static_cast<std::size_t>(f)]) < avail) swap_to(f, --avail);
  // Compared as doubles before any conversion: a `whole` beyond the integer range would turn
  // into garbage (0: a perfect predictor) if converted first.
  std::size_t k = avail;
  if (whole > static_cast<double>(avail)) {
    const auto more = static_cast<std::int64_t>(std::min(whole - static_cast<double>(avail), 4e18));
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    counts_.shortfall = more > kMax - counts_.shortfall ? kMax : counts_.shortfall + more;
  } else {
    k = static_cast<std::size_t>(whole);
  }
  // Partial Fisher-Yates over the prefix: a uniform k-subset whatever the pool's order.
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t j =
        i + static_cast<std::size_t>(engine(static_cast<std::uint64_t>(avail - i)));
    if (j != i) swap_to(pool_[j], i);
    out.push_back(pool_[i]);
  }
  counts_.false_positives += static_cast<std::int64_t>(k);
}

}  // namespace faultsweep::failures
