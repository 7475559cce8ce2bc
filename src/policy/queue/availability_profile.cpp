// The free-node profile of conservative backfilling (policy/availability_profile.hpp): its two
// step vectors, the additions of slots and the searches for the earliest start that fits.
#include "faultsweep/policy/availability_profile.hpp"

#include <algorithm>
#include <bit>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace faultsweep::policy {

void AvailabilityProfile::reset(double t0_s, std::int32_t nodes) {
  time_s_.assign(1, t0_s);
  free_.assign(1, nodes);
}

// The last step from `first` on that starts at or before t (time_s_[first] <= t): a binary
// search without data-dependent branches, since its probes are as good as random to the
// branch predictor and a mispredicted probe costs more than the probe.
std::size_t AvailabilityProfile::step_of(double t_s, std::size_t first) const {
  const double* base = time_s_.data() + first;
  std::size_t n = time_s_.size() - first;
  while (n > 1) {
    const std::size_t half = n / 2;
    base = base[half] <= t_s ? base + half : base;
    n -= half;
  }
  return static_cast<std::size_t>(base - time_s_.data());
}

// The index of the step that starts at t, splitting the step that holds t if needed.
std::size_t AvailabilityProfile::split_at(double t_s) {
  const std::size_t g = found_;  // a guess, used only if it holds t
  const bool hit =
      g < time_s_.size() && time_s_[g] <= t_s && (g + 1 == time_s_.size() || t_s < time_s_[g + 1]);
  const std::size_t k = hit ? g : step_of(t_s, 0);
  if (time_s_[k] == t_s) return k;
  time_s_.insert(time_s_.begin() + static_cast<std::ptrdiff_t>(k + 1), t_s);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(k + 1), free_[k]);
  return k + 1;
}

// Branch-free: every step is copied, and kept only if its count differs from the last kept.
void AvailabilityProfile::forget_before(double t_s) {
  const std::size_t k = step_of(t_s, 0);
  time_s_[0] = t_s;
  free_[0] = free_[k];
  std::size_t out = 1;
  for (std::size_t m = k + 1; m < time_s_.size(); ++m) {
    time_s_[out] = time_s_[m];
    free_[out] = free_[m];
    out += static_cast<std::size_t>(free_[m] != free_[out - 1]);
  }
  time_s_.resize(out);
  free_.resize(out);
}

// The steps of the range are walked once, adding as they go; the end splits the last step
// walked (its count before the add) unless a breakpoint is there already.
void AvailabilityProfile::add(double begin_s, double end_s, std::int32_t nodes) {
  if (!(end_s > begin_s)) return;
  std::size_t m = split_at(begin_s);
  const std::size_t n = time_s_.size();
  for (; m < n && time_s_[m] < end_s; ++m) free_[m] += nodes;
  if (m == n ? end_s == kNever : time_s_[m] == end_s) return;
  time_s_.insert(time_s_.begin() + static_cast<std::ptrdiff_t>(m), end_s);
  free_.insert(free_.begin() + static_cast<std::ptrdiff_t>(m), free_[m - 1] - nodes);
}

std::int32_t AvailabilityProfile::at(double t_s) const {
  return free_[step_of(t_s, 0)];
}

bool AvailabilityProfile::fits(double begin_s, double end_s, std::int32_t nodes) const {
  const std::size_t first = step_of(begin_s, 0);
  for (std::size_t m = first; m < time_s_.size(); ++m) {
    if (m > first && time_s_[m] >= end_s) break;
    if (free_[m] < nodes) return false;
  }
  return true;
}

double AvailabilityProfile::earliest(double from_s, std::int32_t nodes, double wall_s) const {
  return earliest_before(from_s, nodes, wall_s, kNever, kNever);
}

namespace {

// Bit j set if f[j] >= nodes, for j < count (<= 64): sixteen steps a compare-and-pack with SSE2,
// the rest one at a time.
std::uint64_t fit_mask(const std::int32_t* f, std::size_t count, std::int32_t nodes) {
  std::uint64_t mask = 0;
  std::size_t j = 0;
#if defined(__SSE2__)
  const __m128i below = _mm_set1_epi32(nodes - 1);
  for (; j + 16 <= count; j += 16) {
    const auto* v = reinterpret_cast<const __m128i*>(f + j);
    const __m128i a = _mm_packs_epi32(_mm_cmpgt_epi32(_mm_loadu_si128(v), below),
                                      _mm_cmpgt_epi32(_mm_loadu_si128(v + 1), below));
    const __m128i b = _mm_packs_epi32(_mm_cmpgt_epi32(_mm_loadu_si128(v + 2), below),
                                      _mm_cmpgt_epi32(_mm_loadu_si128(v + 3), below));
    mask |= static_cast<std::uint64_t>(
                static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(a, b))))
            << j;
  }
#endif
  for (; j < count; ++j) mask |= static_cast<std::uint64_t>(f[j] >= nodes) << j;
  return mask;
}

}  // namespace

// The steps from from_s on, in blocks: a mask of those with `nodes` free, and from it the
// runs of such steps, each checked at its end only. A run that reaches where its job would end
// (its start + wall_s, the sum as written) or held_s, where the job's own slot takes over, ends
// the search with its start; outside a run, a step at or after starts_before_s ends it with
// none. The steps between a run's ends are not visited one by one: a search on a busy machine
// crosses ~11 runs over ~60 steps, and a walk step by step waits on each step's comparison.
// Each run costs one pass, from its first step (a bit of the block's run starts) to the first
// gap after it, rather than a pass into the run and another out of it.
double AvailabilityProfile::earliest_before(double from_s, std::int32_t nodes, double wall_s,
                                            double held_s, double starts_before_s) const {
  if (!(from_s < starts_before_s)) return kNever;
  const std::size_t n = time_s_.size();
  // From the profile's first step (the common case: a search from now) without a search.
  const std::size_t m = n > 1 && time_s_[1] <= from_s ? step_of(from_s, 1) : 0;
  const double* t = time_s_.data();
  const std::int32_t* f = free_.data();
  double run_s = f[m] >= nodes ? from_s : kNever;
  std::size_t run_k = m;  // the step run_s is in
  // 16 steps first (most searches on a quiet machine end within them), then 64 at a time.
  for (std::size_t k = m + 1, count = 0; k < n; k += count) {
    count = std::min<std::size_t>(k == m + 1 ? 16 : 64, n - k);
    const std::uint64_t all = count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    const std::uint64_t fit = fit_mask(f + k, count, nodes);
    const std::uint64_t gaps = ~fit & all;
    std::uint64_t starts = fit & ~(fit << 1);  // the first step of each run in the block
    if (run_s != kNever) {
      // The run carried in from the block before ends at the block's first gap, if any.
      const double end_s = std::min(held_s, run_s + wall_s);
      if (gaps == 0) {
        if (t[k + count - 1] >= end_s) return found(run_k, run_s);
        continue;
      }
      const int e = std::countr_zero(gaps);
      if (t[k + e] >= end_s) return found(run_k, run_s);
      run_s = kNever;
      starts &= ~std::uint64_t{1};  // bit 0 continued that run
    }
    // Each run of the block in turn, from its first step to its first gap: one pass a run.
    for (; starts != 0; starts &= starts - 1) {
      const int b = std::countr_zero(starts);
      const double s_b = t[k + b];
      if (s_b >= starts_before_s) return kNever;
      const double end_s = std::min(held_s, s_b + wall_s);
      const std::uint64_t after = gaps & (~std::uint64_t{0} << b);
      if (after == 0) {  // the run reaches the block's end
        if (t[k + count - 1] >= end_s) return found(k + b, s_b);
        run_s = s_b;
        run_k = k + b;
        break;
      }
      if (t[k + std::countr_zero(after)] >= end_s) return found(k + b, s_b);
    }
    if (run_s == kNever && t[k + count - 1] >= starts_before_s) return kNever;
  }
  return run_s == kNever ? kNever : found(run_k, run_s);  // the last step lasts forever
}

}  // namespace faultsweep::policy
