#include "faultsweep/failures/renewal.hpp"

#include <fmt/format.h>

#include "faultsweep/core/error.hpp"

namespace faultsweep::failures {

RenewalSource::RenewalSource(std::int32_t nodes, Lifetime ttf, dist::Dist downtime, Engine failures,
                             Engine downtimes, double horizon_s)
    : ttf_(std::move(ttf)),
      downtime_(downtime),
      failures_(failures),
      downtimes_(downtimes),
      horizon_s_(horizon_s) {
  FS_CHECK(nodes >= 1, fmt::format("renewal source with {} nodes", nodes));
  const double mean = std::visit([](const auto& d) { return d.mean(); }, ttf_);
  FS_CHECK(mean > 0, "renewal time to failure must have a positive mean");
  const auto n = static_cast<std::size_t>(nodes);
  next_s_.resize(n);
  heap_.resize(n);
  // Node i's first failure is draw i of the failure stream: all nodes start new at t = 0.
  for (std::size_t i = 0; i < n; ++i) {
    next_s_[i] = draw_ttf();
    heap_[i] = static_cast<std::int32_t>(i);
  }
  for (std::size_t i = n / 2; i-- > 0;) sift_down(i);
}

double RenewalSource::draw_ttf() {
  return std::visit([this](const auto& d) { return d.sample(failures_); }, ttf_);
}

bool RenewalSource::before(std::size_t a, std::size_t b) const {
  const auto na = static_cast<std::size_t>(heap_[a]), nb = static_cast<std::size_t>(heap_[b]);
  if (next_s_[na] != next_s_[nb]) return next_s_[na] < next_s_[nb];
  return heap_[a] < heap_[b];
}

void RenewalSource::sift_down(std::size_t i) {
  const std::size_t n = heap_.size();
  for (;;) {
    const std::size_t l = 2 * i + 1, r = l + 1;
    std::size_t m = i;
    if (l < n && before(l, m)) m = l;
    if (r < n && before(r, m)) m = r;
    if (m == i) return;
    std::swap(heap_[i], heap_[m]);
    i = m;
  }
}

FailureEvent RenewalSource::next() {
  const std::int32_t node = heap_[0];
  const auto idx = static_cast<std::size_t>(node);
  const double t = next_s_[idx];
  if (!(t < horizon_s_)) return FailureEvent{};
  FailureEvent ev{t, node, downtime_.sample(downtimes_)};
  // The next life starts when the repair ends (alternating renewal process).
  next_s_[idx] = t + ev.downtime_s + draw_ttf();
  sift_down(0);
  return ev;
}

}  // namespace faultsweep::failures
