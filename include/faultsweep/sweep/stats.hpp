#pragma once
// Per-point summaries over replicas. Sums run in replica order, so a summary depends only on the
// values, never on which rank computed them or when.
#include <cstddef>
#include <cstdint>

namespace faultsweep::sweep {

struct Summary {
  double n = 0;                     // replicas that ran (NaN values excluded)
  double mean = 0;                  // NaN when n == 0
  double std = 0;                   // sample standard deviation (n - 1); NaN when n < 2
  double sem = 0;                   // std / sqrt(n)
  double ci95_lo = 0, ci95_hi = 0;  // mean -+ t(0.975, n - 1) * sem; NaN when n < 2
};

// values[i] counts when done[i] != 0 and values[i] is not NaN. A deterministic model's single
// value gets std = sem = 0 and a CI of zero width.
Summary summarize(const double* values, const std::uint8_t* done, std::size_t count,
                  bool deterministic);

// Quantile of Student's t distribution with df degrees of freedom (df >= 1), p in (0, 1).
double student_t_quantile(double p, double df);

}  // namespace faultsweep::sweep
