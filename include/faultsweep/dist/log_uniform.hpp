#pragma once
// The two-stage log-uniform distribution of parallel job sizes (Lublin & Feitelson, JPDC 2003,
// §4.2; used by Gottumukkala §6.4.4): log2 of the size is, with probability p_low, uniform on
// [lo_log2, mid_log2) and otherwise uniform on [mid_log2, hi_log2]. The draw x = 2^u may be kept
// continuous, rounded to the nearest integer, or rounded to a power of two (2^round(u)).
#include <cmath>

#include "faultsweep/core/rng.hpp"

namespace faultsweep::dist {

enum class SizeRounding { none, integer, power_of_two };

class TwoStageLogUniform {
 public:
  // Requires lo_log2 <= mid_log2 <= hi_log2 with lo_log2 < hi_log2, 0 <= p_low <= 1 (a stage
  // of zero width must have zero weight), and for rounded modes lo_log2 >= 0 and hi_log2 <= 24.
  // Throws InputError naming "lo", "mid", "hi" or "p".
  TwoStageLogUniform(double lo_log2, double mid_log2, double hi_log2, double p_low,
                     SizeRounding rounding = SizeRounding::none);

  // u = log2 of the continuous size: two uniforms (stage, position).
  double sample_log2(Engine& e) const;
  // 2^u, rounded as configured.
  double sample(Engine& e) const;
  double cdf_log2(double u) const;  // P(U <= u), piecewise linear
  double cdf(double x) const;       // of the rounded (or continuous) size
  double pdf(double x) const;       // continuous mode only (0 for rounded modes)
  double mean() const { return mean_; }
  SizeRounding rounding() const { return rounding_; }

  // Exact rounding helpers (shared with the Lublin generator, which picks a rounding per job).
  static double round_integer(double u) { return std::floor(std::exp2(u) + 0.5); }
  static double round_power_of_two(double u) { return std::exp2(std::floor(u + 0.5)); }

 private:
  double lo_, mid_, hi_, p_;
  SizeRounding rounding_;
  double mean_;
};

}  // namespace faultsweep::dist
