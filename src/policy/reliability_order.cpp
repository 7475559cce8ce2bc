#include "faultsweep/policy/reliability_order.hpp"

#include <algorithm>
#include <bit>
#include <limits>

#include "faultsweep/core/error.hpp"

namespace faultsweep::policy {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// The hazard of an exponential node of this scale over x, as OnlineReliability::hazard computes
// it (scale +inf: never fails).
double exponential_hazard(double scale_s, double x_s) {
  return scale_s < kInf ? x_s / scale_s : 0.0;
}
}  // namespace

void ReliabilityOrder::sync(const reliability::OnlineReliability& model, int nodes) {
  if (model.refits() == synced_refits_) return;
  synced_refits_ = model.refits();
  const std::size_t words = (static_cast<std::size_t>(nodes) + 63) / 64;
  for (Bucket& b : buckets_) spare_.push_back(std::move(b));
  buckets_.clear();
  own_fit_.clear();
  bucket_of_n_.clear();
  for (std::int32_t i = 0; i < nodes; ++i) {
    if (model.own_fit(i)) {
      own_fit_.push_back(i);
      continue;
    }
    // Every node with the same count has the same scale (tau / n, or the pooled scale).
    const auto n = static_cast<std::size_t>(model.failures(i));
    if (n >= bucket_of_n_.size()) bucket_of_n_.resize(n + 1, -1);
    if (bucket_of_n_[n] < 0) {
      bucket_of_n_[n] = static_cast<std::int32_t>(buckets_.size());
      if (spare_.empty()) spare_.emplace_back();
      buckets_.push_back(std::move(spare_.back()));
      spare_.pop_back();
      buckets_.back().scale_s = model.scale_s(i);
      buckets_.back().words.assign(words, 0);
    }
    Bucket& b = buckets_[static_cast<std::size_t>(bucket_of_n_[n])];
    FS_CHECK(b.scale_s == model.scale_s(i), "reliability order: one count, two scales");
    b.words[static_cast<std::size_t>(i) >> 6] |= std::uint64_t{1} << (i & 63);
  }
  // Descending scale: non-decreasing hazard x / scale for every x >= 0.
  std::stable_sort(buckets_.begin(), buckets_.end(),
                   [](const Bucket& a, const Bucket& b) { return a.scale_s > b.scale_s; });
}

std::size_t ReliabilityOrder::take_lowest(const Bucket& b, const NodeSet& free, double hazard,
                                          std::size_t limit, std::vector<Ranked>& out) const {
  const std::vector<std::uint64_t>& f = free.words();
  std::size_t taken = 0;
  for (std::size_t w = 0; w < b.words.size() && taken < limit; ++w) {
    for (std::uint64_t bits = b.words[w] & f[w]; bits != 0 && taken < limit; bits &= bits - 1) {
      const auto id = static_cast<std::int32_t>(64 * w + std::countr_zero(bits));
      out.emplace_back(hazard, id);
      ++taken;
    }
  }
  return taken;
}

void ReliabilityOrder::candidates(const reliability::OnlineReliability& model,
                                  const failures::NodeHistory& h, const NodeSet& free, double now_s,
                                  double x_s, std::size_t k, std::vector<Ranked>& out) const {
  FS_CHECK(synced_refits_ == model.refits() && model.refit_instant() > 0,
           "reliability order used before its sync");
  // Buckets of equal hazard form one level; a level contributes its `need` lowest free ids
  // (need = k minus the nodes of lower levels), which beat its other members on the tie. Once
  // k nodes are placed, every later level has a greater hazard.
  std::size_t placed = 0;
  for (std::size_t b = 0; b < buckets_.size() && placed < k;) {
    const double level = exponential_hazard(buckets_[b].scale_s, x_s);
    const std::size_t need = k - placed;
    std::size_t in_level = 0;
    for (; b < buckets_.size() && exponential_hazard(buckets_[b].scale_s, x_s) == level; ++b)
      in_level += take_lowest(buckets_[b], free, level, need, out);
    placed += std::min(need, in_level);
  }
  for (const std::int32_t id : own_fit_)
    if (free.contains(id)) out.emplace_back(model.hazard(h, id, now_s, x_s), id);
}

}  // namespace faultsweep::policy
