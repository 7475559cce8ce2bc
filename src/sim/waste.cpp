#include "faultsweep/sim/waste.hpp"

#include "faultsweep/sim/engine.hpp"

namespace faultsweep::sim {

int length_category(double s) {
  // Gottumukkala Fig. 5.3: A < 1 min, B < 1 h, C < 6 h, D < 12 h, E < 24 h, F > 1 day.
  constexpr double kBounds[] = {60.0, 3600.0, 6 * 3600.0, 12 * 3600.0, 24 * 3600.0};
  int c = 0;
  for (const double b : kBounds) c += s >= b ? 1 : 0;
  return c;
}

int size_bin(int size) {
  int b = 0;
  for (int edge = 32; b < kWasteBins - 1 && size > edge; edge *= 2) ++b;
  return b;
}

WasteBreakdown waste_breakdown(std::span<const JobRecord> jobs, const workload::Speedup& speedup) {
  WasteBreakdown w;
  std::array<double, kWasteBins> length_run{}, length_ct{}, size_run{};
  double n = 0, ct = 0, waste = 0, unit = 0, size = 0;
  for (const JobRecord& r : jobs) {
    if (r.state != JobState::done) continue;
    // The run length at the requested size (a resized moldable job's runtime_s is at its size).
    const double run = r.runtime_s / speedup.time_factor(r.size, r.requested_size);
    const double wasted = r.lost_s + r.suspended_s;
    const double completion = r.finish_s - r.first_start_s;
    const auto c = static_cast<std::size_t>(length_category(run));
    const auto b = static_cast<std::size_t>(size_bin(r.requested_size));
    w.length_waste_h[c] += wasted / 3600.0;
    w.length_jobs[c] += 1;
    length_run[c] += run;
    length_ct[c] += completion;
    w.size_waste_h[b] += wasted / 3600.0;
    w.size_jobs[b] += 1;
    size_run[b] += run;
    n += 1;
    ct += completion;
    waste += wasted;
    unit += run / r.requested_size;
    size += r.size;
  }
  const auto ratio = [](double a, double b) { return b > 0 ? a / b : WasteBreakdown::kNaN; };
  // Per category: 0 when it has no completed job (jobs_X says so), so that means over replicas
  // and equality checks across policies stay defined.
  const auto part = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  for (std::size_t i = 0; i < kWasteBins; ++i) {
    w.length_pmwt[i] = 100.0 * part(w.length_waste_h[i] * 3600.0, length_run[i]);
    w.size_pmwt[i] = 100.0 * part(w.size_waste_h[i] * 3600.0, size_run[i]);
    w.length_act_s[i] = part(length_ct[i], w.length_jobs[i]);
    w.length_awt_s[i] = part(w.length_waste_h[i] * 3600.0, w.length_jobs[i]);
  }
  w.total_h = waste / 3600.0;
  w.act_s = ratio(ct, n);
  w.awt_s = ratio(waste, n);
  w.mct_norm = ratio(ct, unit);
  w.mwt_norm = ratio(waste, unit);
  w.mean_size = ratio(size, n);
  return w;
}

}  // namespace faultsweep::sim
